import { httpHandler, tenantPrincipal } from '../http/handler';
import { deliveryOf } from './service';

/** The payload and every attempt: time, status code, duration, error, first 1 KB of the response. */
export const handler = httpHandler('webhook-deliveries-get', {}, async ({ params, principal }) => {
  return { status: 200, body: await deliveryOf(tenantPrincipal(principal).tenant.id, params.id) };
});
