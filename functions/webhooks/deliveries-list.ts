import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { DeliveriesQuery } from './schemas';
import { endpointDeliveries } from './service';

/** One endpoint's deliveries, newest first, optionally by status. */
export const handler = httpHandler(
  'webhooks-deliveries',
  { query: DeliveriesQuery },
  async ({ params, query, principal }) => {
    const page = await endpointDeliveries(tenantPrincipal(principal).tenant.id, params.id, query.status, query);
    return { status: 200, body: toPage(page.items, query.limit, page) };
  },
);
