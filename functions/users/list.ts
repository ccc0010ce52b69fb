import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListUsersQuery } from './schemas';
import { listUsers } from './store';
import { toPublicUser } from './user';

export const handler = httpHandler('users-list', { query: ListUsersQuery }, async ({ query, principal }) => {
  const page = await listUsers(tenantPrincipal(principal).tenant.id, query);
  return { status: 200, body: toPage(page.items.map(toPublicUser), query.limit, page) };
});
