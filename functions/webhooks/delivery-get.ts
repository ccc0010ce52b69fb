import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { getDelivery } from './store';

/** The payload and every attempt: time, status code, duration, error, first 1 KB of the response. */
export const handler = httpHandler('webhook-deliveries-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const delivery = isId('dlv', id) ? await getDelivery(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!delivery) throw notFound('The delivery');
  return { status: 200, body: delivery };
});
