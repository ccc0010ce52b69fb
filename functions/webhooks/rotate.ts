import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { endpointOr404 } from './guards';
import { replaceSecrets } from './store';
import { activeSecrets, newSecret, ROTATION_OVERLAP_MS } from './webhook';

/** A new secret signs from now on; the one it replaces keeps signing too for 24 h (two signatures). */
export const handler = httpHandler('webhooks-rotate', {}, async ({ params, principal, now }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const endpoint = await endpointOr404(tenantId, params.id);
  const at = now.toISOString();
  const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  // The current secret becomes the previous one; any older previous one stops signing now.
  const current = activeSecrets(endpoint.secrets, now).find((s) => s.expires_at === null);
  const previous = current ? [{ ...current, expires_at: until }] : [];
  const secret = newSecret();
  const updated = await replaceSecrets(tenantId, endpoint.id, [{ secret, created_at: at, expires_at: null }, ...previous], at, endpoint.version);
  return { status: 200, headers: { ...etag(updated.version), 'Cache-Control': 'no-store' }, body: { ...updated, webhook_secret: secret, previous_secret_expires_at: until } };
});
