import { endpointRecord } from './webhook';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListWebhooksQuery } from './schemas';
import { listEndpoints } from './store';

export const handler = httpHandler('webhooks-list', { query: ListWebhooksQuery }, async ({ query, principal }) => {
  const caller = tenantPrincipal(principal);
  const page = await listEndpoints(caller.tenant.id, query);
  const endpoints = page.items.map((endpoint) => endpointRecord(endpoint, caller.role));
  return { status: 200, body: toPage(endpoints, query.limit, page) };
});
