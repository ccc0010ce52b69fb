import { httpHandler, tenantPrincipal } from '../http/handler';
import { newEvent } from '../events/store';
import { enqueueDeliveries } from './delivery-queue';
import { endpointOr404 } from './guards';
import { createDelivery } from './store';
import { newDelivery } from './webhook';

/** Sends a `webhook.test` event to this endpoint now (an inactive endpoint receives nothing, as always). */
export const handler = httpHandler('webhooks-test', {}, async ({ params, principal, now }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const endpoint = await endpointOr404(tenantId, params.id);
  const event = newEvent(tenantId, 'webhook.test', { webhook_id: endpoint.id, message: 'This is a test event from the messaging platform.' }, now);
  const delivery = newDelivery(event, endpoint.id, now);
  await createDelivery(delivery, event);
  await enqueueDeliveries([{ tenant_id: tenantId, delivery_id: delivery.id, webhook_id: endpoint.id, cycle: 1, failures: 0, payload: event, endpoint_version: endpoint.version }]);
  return { status: 202, body: { delivery_id: delivery.id, event } };
});
