import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db } from '../platform/db';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import { queryPage } from '../platform/pagination';
import { logger } from '../platform/observability';
import { API_KEY_ITEM_PREFIX } from '../../spec/resources';
import type { ApiKeyRecord } from './key';

/**
 * Each key is one item addressed by its SHA-256 (what auth looks up), listed per tenant through gsi1,
 * plus a pointer item under the tenant so revocation by id is a strongly consistent read.
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

export function apiKeyCreateItems(record: ApiKeyRecord, hash: string) {
  const table = tableName('main');
  return [
    {
      Put: {
        TableName: table,
        Item: { ...apiKeyHashKey(hash), gsi1pk: listPartition(record.tenant_id), gsi1sk: record.id, hash, ...record },
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

export async function createApiKey(record: ApiKeyRecord, hash: string): Promise<void> {
  await db().send(new TransactWriteCommand({ TransactItems: apiKeyCreateItems(record, hash) }));
}

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
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table, Key: apiKeyHashKey(hash) } },
        { Delete: { TableName: table, Key: pointerKey(tenantId, keyId) } },
      ],
    }),
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
