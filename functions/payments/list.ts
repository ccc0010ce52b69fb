import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListPaymentsQuery } from './schemas';
import { listPayments } from './store';

/** Newest first; `from`/`to` bound the creation time. */
export const handler = httpHandler('payments-list', { query: ListPaymentsQuery }, async ({ query, principal }) => {
  const { limit, cursor, ...filters } = query;
  if (filters.from && filters.to && filters.from > filters.to)
    throw badRequest('invalid_query', '`from` must not be after `to`.');
  const page = await listPayments(tenantPrincipal(principal).tenant.id, filters, { limit, cursor });
  return { status: 200, body: toPage(page.items, limit, page) };
});
