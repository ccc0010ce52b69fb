import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { DeliveriesQuery } from './schemas';
import { listDeliveries } from './store';

/** The failed-delivery view across the tenant's endpoints (`?status=` picks another status). */
export const handler = httpHandler(
  'webhook-deliveries-list',
  { query: DeliveriesQuery },
  async ({ query, principal }) => {
    const page = await listDeliveries(
      tenantPrincipal(principal).tenant.id,
      { status: query.status ?? 'failed' },
      query,
    );
    return { status: 200, body: toPage(page.items, query.limit, page) };
  },
);
