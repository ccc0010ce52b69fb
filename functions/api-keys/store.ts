// Public: authentication looks keys up; tenant creation writes the first key in its transaction.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, queryAll, transactionConflicted, type TransactItem } from '../platform/db';
import { retryOnConflict } from '../platform/retry';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import { queryPage } from '../platform/pagination';
import { logger } from '../platform/observability';
import { API_KEY_ITEM_PREFIX } from '../../catalog/resources';
import {
  getTenantState,
  keyRevisionBump,
  tenantFromItem,
  writeOrTenantChanged,
  type TenantState,
} from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import type { ApiKeyRecord } from './key';

/**
 * Each key is one item addressed by its SHA-256 (what auth looks up), listed per tenant through gsi1,
 * plus a pointer item under the tenant so revocation by id is a strongly consistent read.
 *
 * The key item also holds `tenant`, a copy of its tenant, so that authenticating a key is one strongly
 * consistent read. The copy is written with the key, and every change of the tenant rewrites the copies
 * of all its keys in the tenant's own transaction (tenants/service.ts), conditional on the tenant's key
 * revision, which each key creation bumps: a suspension reaches every key on the very next request.
 * Keys stored before the copy have none; auth reads the tenant for them, and the tenant's next change
 * gives them one.
 */
export const apiKeyHashKey = (hash: string) => ({ pk: `${API_KEY_ITEM_PREFIX}${hash}`, sk: 'APIKEY' });
const pointerKey = (tenantId: string, keyId: string) => ({ pk: tenantPk(tenantId), sk: `APIKEY#${keyId}` });
const listPartition = (tenantId: string) => `${tenantPk(tenantId)}#APIKEYS`;

export function apiKeyFromItem(item: Record<string, unknown>): ApiKeyRecord {
  const r = item as unknown as ApiKeyRecord;
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    prefix: r.prefix,
    role: r.role,
    created_at: r.created_at,
    created_by: r.created_by,
    last_used_at: r.last_used_at ?? null,
  };
}

/** A key's copy of its tenant; undefined for keys stored before the copy. */
export function tenantCopyFromItem(item: Record<string, unknown>): Tenant | undefined {
  const copy = item.tenant as Record<string, unknown> | undefined;
  return copy && tenantFromItem(copy);
}

/** The key found by the SHA-256 of what the caller sent (strongly consistent: revocation is immediate). */
export async function findApiKey(hash: string): Promise<{ key: ApiKeyRecord; tenant?: Tenant } | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: apiKeyHashKey(hash), ConsistentRead: true }),
  );
  return out.Item && { key: apiKeyFromItem(out.Item), tenant: tenantCopyFromItem(out.Item) };
}

/** The new key's items; `tenant` is the copy it carries. */
export function apiKeyCreateItems(record: ApiKeyRecord, hash: string, tenant: Tenant) {
  const table = tableName('main');
  return [
    {
      Put: {
        TableName: table,
        Item: {
          ...apiKeyHashKey(hash),
          gsi1pk: listPartition(record.tenant_id),
          gsi1sk: record.id,
          hash,
          ...record,
          tenant,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...pointerKey(record.tenant_id, record.id), hash },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** Stores a key with its copy of the tenant as read in `state`; TenantChanged if the tenant or its keys changed since. */
export async function createApiKey(record: ApiKeyRecord, hash: string, state: TenantState): Promise<void> {
  await writeOrTenantChanged([...apiKeyCreateItems(record, hash, state.tenant), keyRevisionBump(state)]);
}

/** The hashes of all the tenant's keys, from their pointers (strongly consistent, so none just created is missed). */
export async function apiKeyHashes(tenantId: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName('main'),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': 'APIKEY#' },
    ProjectionExpression: '#hash',
    ExpressionAttributeNames: { '#hash': 'hash' },
    ConsistentRead: true,
  });
  return items.map((item) => String(item.hash));
}

/**
 * The tenant with its key revision, then the hashes of its keys: in that order, never at once. Each key
 * creation bumps the revision in the transaction that stores the key's pointer, so a revision read here
 * that already counts a key guarantees that the (strongly consistent) pointer query after it finds that
 * key; a key committed after the tenant read changes the revision, and a write conditional on it fails.
 */
export async function tenantWithKeys(tenantId: string): Promise<{ state: TenantState; hashes: string[] } | undefined> {
  const state = await getTenantState(tenantId);
  return state && { state, hashes: await apiKeyHashes(tenantId) };
}

/**
 * Rewrites the copy of the tenant on each of these keys; a key revoked meanwhile fails its condition and
 * the change reads again. A pointer left without its key would fail every change, so the two are only
 * ever written and deleted together, in one transaction.
 */
export const tenantCopyUpdates = (hashes: string[], tenant: Tenant): TransactItem[] =>
  hashes.map((hash) => ({
    Update: {
      TableName: tableName('main'),
      Key: apiKeyHashKey(hash),
      UpdateExpression: 'SET #tenant = :tenant',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#tenant': 'tenant' },
      ExpressionAttributeValues: { ':tenant': tenant },
    },
  }));

export async function listApiKeys(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': listPartition(tenantId) },
    },
    request,
    { owner: tenantId, list: 'api-keys' },
    ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
  );
  return { ...page, items: page.items.map(apiKeyFromItem) };
}

/** Deletes the key and its pointer together; returns false when the tenant has no such key. */
export async function revokeApiKey(tenantId: string, keyId: string): Promise<boolean> {
  const table = tableName('main');
  const pointer = await db().send(
    new GetCommand({ TableName: table, Key: pointerKey(tenantId, keyId), ConsistentRead: true }),
  );
  const hash = pointer.Item?.hash as string | undefined;
  if (!hash) return false;
  // A tenant change writes every key of the tenant in one transaction: a revocation colliding with it
  // is cancelled, and simply tried again.
  await retryOnConflict(
    () =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: table, Key: apiKeyHashKey(hash) } },
            { Delete: { TableName: table, Key: pointerKey(tenantId, keyId) } },
          ],
        }),
      ),
    { attempts: 10, retryable: transactionConflicted },
  );
  return true;
}

/**
 * Records use; conditional on the key still existing so a concurrent revocation is not resurrected.
 * Best effort: a failure here must never fail the request the key authenticated.
 */
export async function touchApiKey(hash: string, now: string): Promise<void> {
  try {
    await conditionalWrite(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: apiKeyHashKey(hash),
          UpdateExpression: 'SET last_used_at = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now },
        }),
      ),
    );
  } catch (error) {
    logger.warn('could not record API key use', { error: (error as Error).name });
  }
}

/** Takes the copy of the tenant off these keys, so auth reads the tenant for them (keys past MAX_TENANT_COPIES). */
export async function dropTenantCopies(hashes: string[]): Promise<void> {
  await Promise.all(
    hashes.map((hash) =>
      conditionalWrite(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName('main'),
            Key: apiKeyHashKey(hash),
            UpdateExpression: 'REMOVE #tenant',
            ConditionExpression: 'attribute_exists(#tenant)',
            ExpressionAttributeNames: { '#tenant': 'tenant' },
          }),
        ),
      ),
    ),
  );
}
