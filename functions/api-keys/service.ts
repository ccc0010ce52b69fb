import { newId } from '../platform/ids';
import { DomainError } from '../platform/domain-error';
import { retryOnConflict } from '../platform/retry';
import { TenantChanged } from '../tenants/store';
import { generateApiKey, MAX_API_KEYS, type ApiKeyRecord } from './key';
import { createApiKey, tenantWithKeys } from './store';

export interface NewApiKey {
  name: string;
  role: ApiKeyRecord['role'];
}

/**
 * Issues a key for the tenant, carrying a copy of it (store.ts). The count and the copy are read with the
 * tenant's key revision, and the key is written only if that revision still holds: two keys created at
 * once cannot both pass the limit, and a tenant change meanwhile makes this read again.
 */
export async function issueApiKey(
  tenantId: string,
  input: NewApiKey,
  createdBy: string,
  now: Date,
): Promise<ApiKeyRecord & { key: string }> {
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('key'),
    tenant_id: tenantId,
    name: input.name,
    prefix: generated.prefix,
    role: input.role,
    created_at: now.toISOString(),
    created_by: createdBy,
    last_used_at: null,
  };
  await retryOnConflict(
    async () => {
      const read = await tenantWithKeys(tenantId);
      if (!read) throw DomainError.notFound('The tenant');
      const { state, hashes } = read;
      if (hashes.length >= MAX_API_KEYS)
        throw DomainError.limit(
          'too_many_api_keys',
          `A tenant can have at most ${MAX_API_KEYS} API keys; revoke one it no longer uses first.`,
        );
      await createApiKey(record, generated.hash, state);
    },
    {
      attempts: 10,
      retryable: (error) => error instanceof TenantChanged,
      exhausted: () => DomainError.conflict('concurrent_update', 'The tenant is changing too fast; retry.'),
    },
  );
  return { ...record, key: generated.key };
}
