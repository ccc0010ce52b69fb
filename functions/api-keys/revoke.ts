import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { revokeApiKey } from './store';

/** Takes effect at once: auth reads the key item on every request, without a cache. */
export const handler = httpHandler('api-keys-revoke', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const revoked = isId('key', id) && (await revokeApiKey(tenantPrincipal(principal).tenant.id, id));
  if (!revoked) throw notFound('The API key');
  return { status: 204 };
});
