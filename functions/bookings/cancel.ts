import { notFound } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { senderOf } from '../auth/principal';
import { CancelBookingQuery } from './schemas';
import { cancelBooking } from './service';

/** DELETE cancels (optional `?reason=`) and returns the cancelled booking; the record is kept. */
export const handler = httpHandler(
  'bookings-cancel',
  { query: CancelBookingQuery },
  async ({ params, query, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('bkg', id)) throw notFound('The booking');
    const booking = await cancelBooking(
      caller.tenant.id,
      id,
      query.reason,
      senderOf(caller),
      ifMatchVersion(event),
      now,
    );
    return { status: 200, headers: etag(booking.version), body: booking };
  },
);
