import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { DeliveriesQuery, deliveryListFilter } from './schemas';
import { endpointDeliveries } from './service';

/** One endpoint's deliveries, newest first, optionally by status, event type and time. */
export const handler = httpHandler(
  'webhooks-deliveries',
  { query: DeliveriesQuery },
  async ({ params, query, principal }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const page = await endpointDeliveries(tenantId, params.id, deliveryListFilter(query), query);
    return { status: 200, body: toPage(page.items, query.limit, page) };
  },
);
