import { httpHandler, tenantPrincipal } from '../platform/http';
import { newEvent } from '../events/store';
import { enqueueDeliveries } from './fanout';
import { endpointOr404 } from './guards';
import { createDelivery } from './store';
import { deliveryId, type Delivery } from './webhook';

/** Sends a `webhook.test` event to this endpoint now (also when it is inactive: it is a deliberate check). */
export const handler = httpHandler('webhooks-test', {}, async ({ params, principal, now }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const endpoint = await endpointOr404(tenantId, params.id);
  const event = newEvent(tenantId, 'webhook.test', { webhook_id: endpoint.id, message: 'This is a test event from the messaging platform.' }, now);
  const at = now.toISOString();
  const delivery: Delivery = {
    id: deliveryId(event.id, endpoint.id), tenant_id: tenantId, webhook_id: endpoint.id, event_id: event.id, event_type: event.type,
    status: 'pending', cycle: 1, attempts: [], next_attempt_at: at, failure_reason: null, created_at: at, updated_at: at, succeeded_at: null, failed_at: null,
  };
  await createDelivery(delivery, event);
  await enqueueDeliveries([{ tenant_id: tenantId, delivery_id: delivery.id, webhook_id: endpoint.id, cycle: 1, failures: 0, payload: event }]);
  return { status: 202, body: { delivery_id: delivery.id, event } };
});
