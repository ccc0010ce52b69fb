import { newId, newTenantId } from '../platform/ids';
import { DomainError } from '../platform/domain-error';
import { changesNothing } from '../platform/fields';
import { retryOnConflict } from '../platform/retry';
import { generateApiKey, MAX_TENANT_COPIES, type ApiKeyRecord } from '../api-keys/key';
import { apiKeyCreateItems, dropTenantCopies, tenantCopyUpdates, tenantWithKeys } from '../api-keys/store';
import { hashPassword } from '../auth/passwords';
import { toPublicUser, type PublicUser, type User } from '../users/user';
import { userCreateItems } from '../users/store';
import type { Language } from '../ai/taxonomy';
import { planLimitProblem, type Plan, type Tenant, type TenantStatus } from './tenant';
import { createTenant, TenantChanged, updateTenant } from './store';

/** Tenants: provisioning and changes, with the plan and limit rules. */

const planLimitError = (problem: string) =>
  DomainError.invalidField('invalid_plan_limit', 'rate_limit_per_hour', problem);

export interface ProvisionInput {
  name: string;
  plan: Plan;
  rate_limit_per_hour?: number;
  timezone?: string;
  default_language?: Language;
  admin: { email: string; password: string; name?: string };
}

export interface Provisioned {
  tenant: Tenant;
  adminUser: PublicUser;
  apiKey: ApiKeyRecord & { key: string };
}

/** Creates the tenant, its first admin and its first API key in one transaction: all or nothing. */
export async function provisionTenant(input: ProvisionInput, now: Date): Promise<Provisioned> {
  const problem = planLimitProblem(input.plan, input.rate_limit_per_hour);
  if (problem) throw planLimitError(problem);
  const at = now.toISOString();
  const tenant: Tenant = {
    id: newTenantId(),
    name: input.name,
    plan: input.plan,
    rate_limit_per_hour: input.rate_limit_per_hour ?? null,
    status: 'active',
    timezone: input.timezone ?? 'UTC',
    default_language: input.default_language ?? 'en',
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const user: User = {
    id: newId('usr'),
    tenant_id: tenant.id,
    email: input.admin.email,
    name: input.admin.name ?? null,
    role: 'admin',
    status: 'active',
    password_hash: await hashPassword(input.admin.password),
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const generated = generateApiKey();
  const apiKey: ApiKeyRecord = {
    id: newId('key'),
    tenant_id: tenant.id,
    name: 'Default key',
    prefix: generated.prefix,
    role: 'admin',
    created_at: at,
    created_by: user.id,
    last_used_at: null,
  };
  // The first admin is the tenant's one active admin.
  await createTenant(tenant, 1, [...userCreateItems(user), ...apiKeyCreateItems(apiKey, generated.hash, tenant)]);
  return { tenant, adminUser: toPublicUser(user), apiKey: { ...apiKey, key: generated.key } };
}

export interface TenantPatch {
  name?: string;
  plan?: Plan;
  rate_limit_per_hour?: number | null;
  status?: TenantStatus;
  timezone?: string;
  default_language?: Language;
}

/**
 * The plan/limit rule depends on the current record: read, check, and write conditionally on that version
 * and key revision, with the changed tenant copied onto each of its keys in the same transaction (so a
 * suspension or a new limit reaches every key at once); read again if another change got in between
 * (an If-Match naming an older version then fails).
 */
export async function changeTenant(
  id: string,
  patch: TenantPatch,
  expectedVersion: number | undefined,
  now: Date,
): Promise<Tenant> {
  return retryOnConflict(
    async () => {
      const read = await tenantWithKeys(id);
      if (!read) throw DomainError.notFound('The tenant');
      const { state, hashes } = read;
      const current = state.tenant;
      if (expectedVersion !== undefined && expectedVersion !== current.version) throw DomainError.versionMismatch();
      const plan = patch.plan ?? current.plan;
      // Leaving enterprise drops the custom limit; moving to it requires one.
      const limit =
        patch.rate_limit_per_hour !== undefined
          ? patch.rate_limit_per_hour
          : plan === 'enterprise'
            ? current.rate_limit_per_hour
            : null;
      const problem = planLimitProblem(plan, limit);
      if (problem) throw planLimitError(problem);
      const changes = {
        name: patch.name,
        plan,
        rate_limit_per_hour: limit,
        status: patch.status,
        timezone: patch.timezone,
        default_language: patch.default_language,
      };
      if (changesNothing(current, changes)) return current;
      // Only tenants with keys from before the limit have more keys than one transaction can copy onto:
      // those past the 99th carry no copy, and auth reads the tenant for them.
      await dropTenantCopies(hashes.slice(MAX_TENANT_COPIES));
      return updateTenant(state, changes, now.toISOString(), (changed) =>
        tenantCopyUpdates(hashes.slice(0, MAX_TENANT_COPIES), changed),
      );
    },
    {
      attempts: 10,
      retryable: (error) => error instanceof TenantChanged,
      exhausted: () => DomainError.conflict('concurrent_update', 'The tenant is changing too fast; retry.'),
    },
  );
}
