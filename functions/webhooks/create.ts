import { unprocessable } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { newId } from '../platform/ids';
import { CreateWebhookBody } from './schemas';
import { allEndpoints, createEndpoint, MAX_ENDPOINTS } from './store';
import { assertSafeUrl } from './guards';
import { newSecret, type WebhookEndpoint } from './webhook';

/** The signing secret is in this response and in rotation responses only. */
export const handler = httpHandler('webhooks-create', { body: CreateWebhookBody }, async ({ body, principal, now }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  await assertSafeUrl(body.url);
  if ((await allEndpoints(tenantId)).length >= MAX_ENDPOINTS) throw unprocessable('too_many_webhooks', `A tenant can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
  const at = now.toISOString();
  const endpoint: WebhookEndpoint = {
    id: newId('whk'), tenant_id: tenantId, url: body.url, events: [...new Set(body.events)], description: body.description ?? null,
    is_active: body.is_active, created_at: at, updated_at: at, version: 1,
  };
  const secret = newSecret();
  await createEndpoint(endpoint, [{ secret, created_at: at, expires_at: null }]);
  return {
    status: 201,
    headers: { ...etag(1), 'Cache-Control': 'no-store', Location: `/api/v1/webhooks/${endpoint.id}` },
    body: { ...endpoint, webhook_secret: secret },
  };
});
