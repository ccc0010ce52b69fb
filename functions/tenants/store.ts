import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, updateVersioned, type TransactItem } from '../platform/db';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import { queryPage } from '../platform/pagination';
import type { Tenant } from './tenant';

/** The only code that knows how tenant records are keyed. */
export const tenantKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'TENANT' });
const LIST_PARTITION = 'TENANTS';

export function tenantFromItem(item: Record<string, unknown>): Tenant {
  // active_admins is the users feature's counter (see users/store.ts), not part of the tenant.
  const { pk, sk, gsi1pk, gsi1sk, active_admins, ...tenant } = item;
  return { timezone: 'UTC', default_language: 'en', ...tenant } as unknown as Tenant;
}

/** A new tenant's item; `activeAdmins` starts the counter that keeps the last active admin (users/store.ts). */
function tenantPut(tenant: Tenant, activeAdmins: number) {
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        ...tenantKey(tenant.id),
        gsi1pk: LIST_PARTITION,
        gsi1sk: `${tenant.created_at}#${tenant.id}`,
        ...tenant,
        active_admins: activeAdmins,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Creates the tenant with the other items of its provisioning (its first users and keys) in one transaction: all or nothing. */
export async function createTenant(tenant: Tenant, activeAdmins: number, items: TransactItem[]): Promise<void> {
  await db().send(new TransactWriteCommand({ TransactItems: [tenantPut(tenant, activeAdmins), ...items] }));
}

export async function getTenant(tenantId: string): Promise<Tenant | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: tenantKey(tenantId), ConsistentRead: true }),
  );
  return out.Item ? tenantFromItem(out.Item) : undefined;
}

export async function listTenants(request: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': LIST_PARTITION },
    },
    request,
    { owner: 'platform', list: 'tenants' },
    ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
  );
  return { ...page, items: page.items.map(tenantFromItem) };
}

export type TenantChanges = Partial<
  Pick<Tenant, 'name' | 'plan' | 'rate_limit_per_hour' | 'status' | 'timezone' | 'default_language'>
>;

export async function updateTenant(
  tenantId: string,
  changes: TenantChanges,
  now: string,
  expectedVersion?: number,
): Promise<Tenant> {
  const item = await updateVersioned(tableName('main'), tenantKey(tenantId), changes, {
    now,
    expectedVersion,
    what: 'The tenant',
  });
  return tenantFromItem(item);
}
