import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListWebhooksQuery } from './schemas';
import { listEndpoints } from './store';

export const handler = httpHandler('webhooks-list', { query: ListWebhooksQuery }, async ({ query, principal }) => {
  const page = await listEndpoints(tenantPrincipal(principal).tenant.id, query);
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
