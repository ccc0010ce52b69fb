import { notFound } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { senderOf } from '../auth/principal';
import { UpdateBookingBody } from './schemas';
import { updateBooking } from './service';

export const handler = httpHandler(
  'bookings-update',
  { body: UpdateBookingBody },
  async ({ params, body, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('bkg', id)) throw notFound('The booking');
    const booking = await updateBooking(caller.tenant.id, id, body, senderOf(caller), ifMatchVersion(event), now);
    return { status: 200, headers: etag(booking.version), body: booking };
  },
);
