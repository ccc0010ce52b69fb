import { endpointRecord } from './webhook';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { rotateSecret } from './service';

/** A new secret signs from now on; the one it replaces keeps signing too for 24 h (two signatures). */
export const handler = httpHandler('webhooks-rotate', {}, async ({ params, principal, now, event }) => {
  const { endpoint, secret, previousExpiresAt } = await rotateSecret(
    tenantPrincipal(principal).tenant.id,
    params.id,
    ifMatchVersion(event),
    now,
  );
  return {
    status: 200,
    headers: { ...etag(endpoint.version), 'Cache-Control': 'no-store' },
    body: {
      ...endpointRecord(endpoint, tenantPrincipal(principal).role),
      webhook_secret: secret,
      previous_secret_expires_at: previousExpiresAt,
    },
  };
});
