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
