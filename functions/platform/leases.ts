import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { WORKER_TIMEOUT_SECONDS } from '../../catalog/resources';
import { epochSeconds } from './clock';
import { tableName } from './config';
import { conditionalWrite, db } from './db';

/**
 * How long a scheduled run holds its lease: longer than the worker's timeout, so a run that Lambda kills
 * mid-work (and so never releases) cannot be running any more when the lease lapses, plus room for the
 * clocks of two invocations to differ.
 */
export const SCHEDULED_RUN_LEASE_MS = (WORKER_TIMEOUT_SECONDS + 10) * 1000;

export interface Lease {
  name: string;
  owner: string;
}

const leaseKey = (name: string) => `LEASE#${name}`;

/**
 * Takes the lease `name` (an item of the ephemeral table) until `now + holdMs`: one conditional PutItem,
 * which succeeds only if nobody holds it or its holder's time has passed. Undefined when another holds it.
 * The item's TTL removes it a day after it lapses, should its holder never release it.
 */
export async function acquireLease(name: string, now: Date, holdMs: number): Promise<Lease | undefined> {
  const owner = randomUUID();
  const expiresAtMs = now.getTime() + holdMs;
  const taken = await conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName('ephemeral'),
        Item: {
          pk: leaseKey(name),
          owner,
          expires_at_ms: expiresAtMs,
          ttl: epochSeconds(now) + Math.ceil(holdMs / 1000) + 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at_ms <= :now',
        ExpressionAttributeValues: { ':now': now.getTime() },
      }),
    ),
  );
  return taken ? { name, owner } : undefined;
}

/** Gives the lease back, if it is still ours (a lapsed lease may have been taken by the next run meanwhile). */
export async function releaseLease(lease: Lease): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName('ephemeral'),
        Key: { pk: leaseKey(lease.name) },
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': lease.owner },
      }),
    ),
  );
}
