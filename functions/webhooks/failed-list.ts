import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { deliveryListFilter, TenantDeliveriesQuery } from './schemas';
import { tenantDeliveries } from './service';

/** The failed-delivery view across the tenant's endpoints, narrowed by endpoint, event type and time. */
export const handler = httpHandler(
  'webhook-deliveries-list',
  { query: TenantDeliveriesQuery },
  async ({ query, principal }) => {
    const filter = { ...deliveryListFilter(query), webhookId: query.webhook_id };
    const page = await tenantDeliveries(tenantPrincipal(principal).tenant.id, filter, query);
    return { status: 200, body: toPage(page.items, query.limit, page) };
  },
);
