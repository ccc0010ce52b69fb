import { httpHandler } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListTenantsQuery } from './schemas';
import { listTenants } from './store';
import { tenantView } from './views';

export const handler = httpHandler('tenants-list', { query: ListTenantsQuery }, async ({ query }) => {
  const page = await listTenants(query);
  return { status: 200, body: toPage(page.items.map(tenantView), query.limit, page) };
});
