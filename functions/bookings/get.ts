import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { getBooking } from './store';

export const handler = httpHandler('bookings-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const booking = isId('bkg', id) ? await getBooking(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!booking) throw notFound('The booking');
  return { status: 200, headers: etag(booking.version), body: booking };
});
