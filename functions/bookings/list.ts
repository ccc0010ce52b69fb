import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListBookingsQuery } from './schemas';
import { listBookings } from './store';

/** Latest start first; `from`/`to` bound the start time. */
export const handler = httpHandler('bookings-list', { query: ListBookingsQuery }, async ({ query, principal }) => {
  const { limit, cursor, ...filters } = query;
  if (filters.from && filters.to && filters.from > filters.to)
    throw badRequest('invalid_query', '`from` must not be after `to`.');
  const page = await listBookings(tenantPrincipal(principal).tenant.id, filters, { limit, cursor });
  return { status: 200, body: toPage(page.items, limit, page) };
});
