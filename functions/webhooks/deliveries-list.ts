import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { endpointOr404 } from './guards';
import { DeliveriesQuery } from './schemas';
import { listDeliveries } from './store';

/** One endpoint's deliveries, newest first, optionally by status. */
export const handler = httpHandler('webhooks-deliveries', { query: DeliveriesQuery }, async ({ params, query, principal }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const endpoint = await endpointOr404(tenantId, params.id);
  const page = await listDeliveries(tenantId, { webhookId: endpoint.id, status: query.status }, query);
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
