import { BOOKING_STATUSES } from '../../functions/bookings/booking';
import { confirmReply } from '../../functions/reminders/reminder';

/** A Confirm tap is answered with the booking as it stands, in the booking's time zone. */
const booking = (status: (typeof BOOKING_STATUSES)[number]) => ({
  status,
  start_at: '2031-03-04T14:00:00.000Z',
  timezone: 'Europe/Berlin',
});

it('calls a booking confirmed only when it is, with its local start', () => {
  expect(confirmReply(booking('confirmed'))).toMatch(
    /^Thank you: your booking on Tue, Mar 4, 0?3:00 PM is confirmed\.$/,
  );
  const others = BOOKING_STATUSES.filter((s) => s !== 'confirmed').map((s) => confirmReply(booking(s)));
  for (const text of others) expect(text).not.toMatch(/is confirmed/);
  expect(confirmReply(booking('cancelled'))).toMatch(/was cancelled\. Write to us to book again\.$/);
  expect(confirmReply(booking('pending_payment'))).toMatch(/held until its deposit is paid/);
  expect(confirmReply(booking('completed'))).toMatch(/has passed/);
});
