import { httpHandler, tenantPrincipal } from '../http/handler';
import { newId } from '../platform/ids';
import { actorId } from '../auth/principal';
import { generateApiKey, type ApiKeyRecord } from './key';
import { CreateApiKeyBody } from './schemas';
import { createApiKey } from './store';

/** The key itself is in this response only; afterwards only its prefix is shown. */
export const handler = httpHandler('api-keys-create', { body: CreateApiKeyBody }, async ({ body, principal, now }) => {
  const caller = tenantPrincipal(principal);
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('key'),
    tenant_id: caller.tenant.id,
    name: body.name,
    prefix: generated.prefix,
    role: body.role,
    created_at: now.toISOString(),
    created_by: actorId(caller),
    last_used_at: null,
  };
  await createApiKey(record, generated.hash);
  return {
    status: 201,
    headers: { 'Cache-Control': 'no-store', Location: `/api/v1/api-keys/${record.id}` },
    body: { ...record, key: generated.key },
  };
});
