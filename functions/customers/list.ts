import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { customerRecord, nameSearchForm, normalisePhone } from './customer';
import { ListCustomersQuery } from './schemas';
import { findCustomerByPhone, listCustomers, listCustomersByName } from './store';

/**
 * Newest first, one Query per page; `name` lists those whose name, or a later word of it, starts with it, A to Z (one Query per
 * page); `phone` finds the one customer with that number in one read.
 */
export const handler = httpHandler('customers-list', { query: ListCustomersQuery }, async ({ query, principal }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const { limit, cursor, phone, name } = query;
  if (phone !== undefined && name !== undefined)
    throw badRequest('invalid_query', 'Find customers by `phone` or by `name`, not both.');
  if (name !== undefined) {
    const form = nameSearchForm(name);
    if (!form) throw badRequest('invalid_query', 'Search by `name` with at least one letter or digit.');
    const page = await listCustomersByName(tenantId, form, { limit, cursor });
    return { status: 200, body: toPage(page.items.map(customerRecord), limit, page) };
  }
  if (phone !== undefined) {
    if (cursor !== undefined)
      throw badRequest('invalid_query', 'A lookup by `phone` has one page: leave out `cursor`.');
    const found = await findCustomerByPhone(tenantId, normalisePhone(phone) ?? '');
    return {
      status: 200,
      body: toPage(found ? [customerRecord(found)] : [], limit, { hasMore: false, nextCursor: null }),
    };
  }
  const page = await listCustomers(tenantId, { limit, cursor });
  return { status: 200, body: toPage(page.items.map(customerRecord), limit, page) };
});
