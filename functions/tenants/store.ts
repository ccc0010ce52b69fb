// Public: authentication and the features that check a tenant's plan read tenants.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  db,
  transactionConditionFailed,
  transactionConflicted,
  versionedUpdate,
  type TransactItem,
} from '../platform/db';
import { UpdateBuilder } from '../platform/expressions';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import { queryPage } from '../platform/pagination';
import { changedTenant, type Tenant, type TenantChanges } from './tenant';

/** The only code that knows how tenant records are keyed. */
export const tenantKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'TENANT' });
const LIST_PARTITION = 'TENANTS';

/**
 * The api-keys feature's counter on the tenant item: every key creation adds one, conditional on the value
 * it read (api-keys/store.ts). A tenant change, which copies the tenant onto each key, is conditional on it
 * too, so no key created meanwhile misses the copy. Absent (0) until the first key created after it.
 */
const KEY_REVISION = 'key_rev';

export function tenantFromItem(item: Record<string, unknown>): Tenant {
  // active_admins and key_rev are the users' and the API keys' counters, not part of the tenant.
  const { pk, sk, gsi1pk, gsi1sk, active_admins, key_rev, ...tenant } = item;
  return { timezone: 'UTC', default_language: 'en', ...tenant } as unknown as Tenant;
}

/** The tenant with the revision of its set of API keys, read together. */
export interface TenantState {
  tenant: Tenant;
  keyRevision: number;
}

/** Conditions `update` of the tenant item on its key revision still being `revision`. */
function whenKeyRevision(update: UpdateBuilder, revision: number): UpdateBuilder {
  return revision === 0
    ? update.when(`attribute_not_exists(${update.name(KEY_REVISION)})`)
    : update.whenEquals(KEY_REVISION, revision);
}

/** The tenant item's update that records one more key, valid only if neither the tenant nor its keys changed since `state`. */
export function keyRevisionBump(state: TenantState): TransactItem {
  const update = whenKeyRevision(
    new UpdateBuilder().add(KEY_REVISION, 1).whenEquals('version', state.tenant.version),
    state.keyRevision,
  );
  return { Update: { TableName: tableName('main'), Key: tenantKey(state.tenant.id), ...update.build() } };
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
  return (await getTenantState(tenantId))?.tenant;
}

export async function getTenantState(tenantId: string): Promise<TenantState | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: tenantKey(tenantId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  return { tenant: tenantFromItem(out.Item), keyRevision: Number(out.Item[KEY_REVISION] ?? 0) };
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

/**
 * Changes the tenant, conditional on the version and key revision of `state`, with the other items of the
 * change (the copies of the changed tenant on its keys) in one transaction. A failed condition or a
 * collision throws TenantChanged; the caller reads again and retries.
 */
export async function updateTenant(
  state: TenantState,
  changes: TenantChanges,
  now: string,
  alongside: (changed: Tenant) => TransactItem[],
): Promise<Tenant> {
  const update = whenKeyRevision(
    versionedUpdate(changes, now).whenEquals('version', state.tenant.version),
    state.keyRevision,
  );
  const changed = changedTenant(state.tenant, changes, now);
  await writeOrTenantChanged([
    { Update: { TableName: tableName('main'), Key: tenantKey(state.tenant.id), ...update.build() } },
    ...alongside(changed),
  ]);
  return changed;
}

/** A write lost to another change of the tenant or of its keys: read again and retry. */
export class TenantChanged extends Error {
  constructor() {
    super('the tenant or its keys changed concurrently');
    this.name = 'TenantChanged';
  }
}

/** Runs a transaction that holds the tenant item, turning a failed condition or a collision into TenantChanged. */
export async function writeOrTenantChanged(items: TransactItem[]): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new TenantChanged();
    throw error;
  }
}
