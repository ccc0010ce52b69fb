import { httpHandler, tenantPrincipal } from '../http/handler';
import { actorId } from '../auth/principal';
import { CreateApiKeyBody } from './schemas';
import { issueApiKey } from './service';

/** The key itself is in this response only; afterwards only its prefix is shown. */
export const handler = httpHandler('api-keys-create', { body: CreateApiKeyBody }, async ({ body, principal, now }) => {
  const caller = tenantPrincipal(principal);
  const created = await issueApiKey(caller.tenant.id, body, actorId(caller), now);
  return {
    status: 201,
    headers: { 'Cache-Control': 'no-store', Location: `/api/v1/api-keys/${created.id}` },
    body: created,
  };
});
