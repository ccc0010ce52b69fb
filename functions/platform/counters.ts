import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db } from './db';
import { tableName } from './config';

/**
 * Fixed-window counters in the ephemeral table. The increment is one conditional UpdateItem, so the
 * count is exact under any concurrency: the (limit+1)th caller's condition fails.
 */
export async function consume(
  key: string,
  opts: { limit?: number; expiresAtEpoch: number },
): Promise<{ allowed: boolean; count: number }> {
  const values: Record<string, unknown> = { ':one': 1, ':ttl': opts.expiresAtEpoch };
  let condition: string | undefined;
  if (opts.limit !== undefined) {
    condition = 'attribute_not_exists(n) OR n < :limit';
    values[':limit'] = opts.limit;
  }
  let count = 1;
  const allowed = await conditionalWrite(async () => {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName('ephemeral'),
        Key: { pk: key },
        UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: values,
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    count = Number(out.Attributes?.n ?? 1);
  });
  return allowed ? { allowed, count } : { allowed, count: opts.limit ?? 0 };
}

/** Shares made, by limit: every request of a tenant asks for its limit's (167 for the largest allowed limit). */
const sharesMade = new Map<string, readonly number[]>();

/**
 * The shares of a limit counted in shards, for a limit one item cannot count alone (DynamoDB takes about
 * 1,000 writes per second on one item): one share per `perItem`, adding up to exactly `limit`.
 */
export function shardShares(limit: number, perItem: number): readonly number[] {
  const key = `${limit}/${perItem}`;
  let shares = sharesMade.get(key);
  if (!shares) {
    const n = Math.max(1, Math.ceil(limit / perItem));
    shares = Object.freeze(Array.from({ length: n }, (_, i) => Math.floor(limit / n) + (i < limit % n ? 1 : 0)));
    // Limits are few (a plan's, or a tenant's own): the bound only keeps a flood of them from growing it.
    if (sharesMade.size >= 1000) sharesMade.clear();
    sharesMade.set(key, shares);
  }
  return shares;
}

/**
 * A fixed-window counter in shards (`<key>#<shard>`), each allowed its share. An increment starts at a
 * random shard and moves on to the next only when that one's share is used up, so the total is exact:
 * an increment is refused only when every shard is full, and the shares add up to the limit. Writes
 * spread evenly over the shards; only near the limit does an increment take more than one write.
 * Returns the count and share of the shard that took it.
 */
export async function consumeSharded(
  key: string,
  shares: readonly number[],
  expiresAtEpoch: number,
): Promise<{ allowed: boolean; count: number; share: number }> {
  const first = Math.floor(Math.random() * shares.length);
  for (let step = 0; step < shares.length; step++) {
    const shard = (first + step) % shares.length;
    const share = shares[shard] ?? 0;
    const result = await consume(`${key}#${shard}`, { limit: share, expiresAtEpoch });
    if (result.allowed) return { allowed: true, count: result.count, share };
  }
  return { allowed: false, count: 0, share: 0 };
}

/** Gives back a slot taken by `consume` (for attempts that turned out not to count). */
export async function refund(key: string): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('ephemeral'),
        Key: { pk: key },
        UpdateExpression: 'ADD n :minus',
        ConditionExpression: 'n > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    ),
  );
}

/** The fixed window containing `now`: its start (for the key) and its end (for Reset / Retry-After). */
export function fixedWindow(now: Date, seconds: number): { start: number; resetAt: number; secondsLeft: number } {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const start = nowSeconds - (nowSeconds % seconds);
  const resetAt = start + seconds;
  return { start, resetAt, secondsLeft: resetAt - nowSeconds };
}
