import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateBookingBody } from './schemas';
import { createBooking } from './service';

/** Created `confirmed` unless `status: "pending"` is asked for; 409 if the resource is taken then. */
export const handler = httpHandler('bookings-create', { body: CreateBookingBody }, async ({ body, principal, now }) => {
  const booking = await createBooking(tenantPrincipal(principal).tenant.id, body, now);
  return {
    status: 201,
    headers: { ...etag(booking.version), Location: `/api/v1/bookings/${booking.id}` },
    body: booking,
  };
});
