import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { assertSafeUrl, endpointOr404 } from './guards';
import { UpdateWebhookBody } from './schemas';
import { updateEndpoint } from './store';

/** `is_active: false` stops deliveries at once: nothing new is queued, and pending retries are dropped. */
export const handler = httpHandler('webhooks-update', { body: UpdateWebhookBody }, async ({ params, body, principal, now, event }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const current = await endpointOr404(tenantId, params.id);
  if (body.url !== undefined) await assertSafeUrl(body.url);
  // Re-activated: events of the inactive period are not sent late (see subscribes()).
  const reactivated = !current.is_active && body.is_active === true;
  const changes = { ...body, events: body.events ? [...new Set(body.events)] : undefined, active_from: reactivated ? now.toISOString() : undefined };
  const endpoint = await updateEndpoint(tenantId, current.id, changes, now.toISOString(), ifMatchVersion(event));
  return { status: 200, headers: etag(endpoint.version), body: endpoint };
});
