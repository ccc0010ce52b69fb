import { httpHandler, tenantPrincipal } from '../http/handler';
import { sendTestEvent } from './service';

/** Sends a `webhook.test` event to this endpoint now (an inactive endpoint receives nothing, as always). */
export const handler = httpHandler('webhooks-test', {}, async ({ params, principal, now }) => {
  const { delivery, event } = await sendTestEvent(tenantPrincipal(principal).tenant.id, params.id, now);
  return { status: 202, body: { delivery_id: delivery.id, event } };
});
