import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../platform/db';
import { newId, newTenantId } from '../platform/ids';
import { unprocessable } from '../platform/errors';
import { generateApiKey, type ApiKeyRecord } from '../api-keys/key';
import { apiKeyCreateItems } from '../api-keys/store';
import { hashPassword } from '../auth/passwords';
import { toPublicUser, type PublicUser, type User } from '../users/user';
import { userCreateItems } from '../users/store';
import { planLimitProblem, type Plan, type Tenant } from './tenant';
import { tenantPut } from './store';

export interface ProvisionInput {
  name: string;
  plan: Plan;
  rate_limit_per_hour?: number;
  timezone?: string;
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
  if (problem) throw unprocessable('invalid_plan_limit', problem, [{ path: 'rate_limit_per_hour', message: problem }]);
  const at = now.toISOString();
  const tenant: Tenant = {
    id: newTenantId(),
    name: input.name,
    plan: input.plan,
    rate_limit_per_hour: input.rate_limit_per_hour ?? null,
    status: 'active',
    timezone: input.timezone ?? 'UTC',
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
  await db().send(
    new TransactWriteCommand({
      // The first admin is the tenant's one active admin.
      TransactItems: [tenantPut(tenant, 1), ...userCreateItems(user), ...apiKeyCreateItems(apiKey, generated.hash)],
    }),
  );
  return { tenant, adminUser: toPublicUser(user), apiKey: { ...apiKey, key: generated.key } };
}
