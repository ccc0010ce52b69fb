import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListApiKeysQuery } from './schemas';
import { listApiKeys } from './store';

export const handler = httpHandler('api-keys-list', { query: ListApiKeysQuery }, async ({ query, principal }) => {
  const page = await listApiKeys(tenantPrincipal(principal).tenant.id, query);
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
