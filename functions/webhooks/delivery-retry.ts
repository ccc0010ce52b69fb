import { httpHandler, tenantPrincipal } from '../http/handler';
import { retryDelivery } from './service';

export const handler = httpHandler('webhook-deliveries-retry', {}, async ({ params, principal, now }) => {
  const { delivery, cycle } = await retryDelivery(tenantPrincipal(principal).tenant.id, params.id, now);
  return { status: 202, body: { delivery_id: delivery.id, status: 'pending', cycle } };
});
