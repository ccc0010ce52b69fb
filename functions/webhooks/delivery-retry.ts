import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { replay } from './replay';
import { getDelivery } from './store';

export const handler = httpHandler('webhook-deliveries-retry', {}, async ({ params, principal, now }) => {
  const id = params.id ?? '';
  const delivery = isId('dlv', id) ? await getDelivery(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!delivery) throw notFound('The delivery');
  const cycle = await replay(delivery, now);
  return { status: 202, body: { delivery_id: delivery.id, status: 'pending', cycle } };
});
