import { endpointRecord } from './webhook';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateWebhookBody } from './schemas';
import { createWebhook } from './service';

/** The signing secret is in this response and in rotation responses only. */
export const handler = httpHandler('webhooks-create', { body: CreateWebhookBody }, async ({ body, principal, now }) => {
  const { endpoint, secret } = await createWebhook(tenantPrincipal(principal).tenant.id, body, now);
  return {
    status: 201,
    headers: { ...etag(endpoint.version), 'Cache-Control': 'no-store', Location: `/api/v1/webhooks/${endpoint.id}` },
    body: { ...endpointRecord(endpoint, tenantPrincipal(principal).role), webhook_secret: secret },
  };
});
