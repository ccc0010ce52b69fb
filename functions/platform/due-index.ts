import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './config';
import { db } from './db';

/**
 * The Main table's sparse index of things that fall due, across tenants (gsi5): pending webhook
 * deliveries by next attempt and while a worker holds one, snoozed conversations by wake-up time, queued
 * outbound messages. Only items that are due some day carry its keys. Each kind spreads its entries over
 * shards of its own prefix, so their writes do not all land on one index partition; the scheduled worker
 * of each kind reads every shard up to now.
 *
 * Every webhook delivery writes its kind's entries twice (added when a worker takes the attempt, removed
 * when it is recorded), and an index partition takes about 1,000 writes a second. Eight shards carried
 * 4,000 deliveries a second across all tenants. The shards now carry the largest plan's peak: no tenant
 * passes API Gateway's 10,000 requests a second per account (docs/scaling.md), and a request causes at
 * most a few deliveries (three, one per subscribed endpoint, at the peak the model assumes): 30,000 a
 * second, 60 shards. Each sweep reads every shard of its kinds (60 small queries a kind), which is why
 * they are not sized for more. Items written under fewer shards are still read: their shard numbers are
 * among these.
 */
export const PEAK_DELIVERIES_PER_SECOND = 30_000;
const WRITES_PER_ITEM = 2;
const INDEX_PARTITION_WRITES_PER_SECOND = 1_000;
export const DUE_SHARDS = Math.ceil((PEAK_DELIVERIES_PER_SECOND * WRITES_PER_ITEM) / INDEX_PARTITION_WRITES_PER_SECOND);

/**
 * The shards written and read: DUE_SHARDS, unless a local runtime is given fewer (`DUE_INDEX_SHARDS`, which
 * the test runtimes set to 4: their schedulers run every 2 s, and a run's 60 queries a kind were most of an
 * idle test runtime's CPU). Never set where items written under another count wait: an item is found only
 * among the shards its readers read.
 */
const shardCount = (): number => {
  const asked = Number(process.env.DUE_INDEX_SHARDS);
  return Number.isInteger(asked) && asked > 0 ? asked : DUE_SHARDS;
};

/** The index keys of an item of `kind` with this id, due at `sortKey` (an ISO time first, so it sorts by time). */
export const dueIndexKeys = (kind: string, id: string, sortKey: string) => ({
  gsi5pk: `${kind}#${createHash('sha256').update(id).digest().readUInt32BE(0) % shardCount()}`,
  gsi5sk: sortKey,
});

/**
 * At most this many shard queries at a time: a sweep reads every shard, and a burst of them would take
 * every connection of the process's client (the local runtime serves requests with the same one).
 */
const QUERIES_AT_ONCE = 8;

/** Items of `kind` due before `cutoff`, oldest first in each shard, at most `limitPerShard` from each. */
export async function dueItems(kind: string, cutoff: Date, limitPerShard: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const count = shardCount();
  for (let first = 0; first < count; first += QUERIES_AT_ONCE) {
    const shards = Array.from({ length: Math.min(QUERIES_AT_ONCE, count - first) }, (_, i) => first + i);
    const pages = await Promise.all(
      shards.map((shard) =>
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
    for (const page of pages) items.push(...(page.Items ?? []));
  }
  return items;
}
