import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './config';
import { db } from './db';

/**
 * The Main table's sparse index of things that fall due, across tenants (gsi5): pending webhook
 * deliveries by next attempt, snoozed conversations by wake-up time. Only items that are due some day
 * carry its keys. Each kind spreads its entries over a few shards of its own prefix, so their writes do
 * not all land on one partition; the scheduled worker of each kind reads every shard up to now.
 */
const DUE_SHARDS = 8;

/** The index keys of an item of `kind` with this id, due at `sortKey` (an ISO time first, so it sorts by time). */
export const dueIndexKeys = (kind: string, id: string, sortKey: string) => ({
  gsi5pk: `${kind}#${createHash('sha256').update(id).digest()[0]! % DUE_SHARDS}`,
  gsi5sk: sortKey,
});

/** Items of `kind` due before `cutoff`, oldest first in each shard, at most `limitPerShard` from each. */
export async function dueItems(kind: string, cutoff: Date, limitPerShard: number): Promise<Record<string, unknown>[]> {
  const pages = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) =>
      db().send(
        new QueryCommand({
          TableName: tableName('main'),
          IndexName: 'gsi5',
          KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk < :cutoff',
          ExpressionAttributeValues: { ':pk': `${kind}#${shard}`, ':cutoff': cutoff.toISOString() },
          Limit: limitPerShard,
        }),
      ),
    ),
  );
  return pages.flatMap((page) => page.Items ?? []);
}
