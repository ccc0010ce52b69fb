import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  conditionalWrite,
  db,
  getMany,
  transactionConditionFailed,
  transactionConflicted,
  transactionRefusedItem,
  versionedUpdate,
  type TransactItem,
} from '../platform/db';
import { retryOnConflict } from '../platform/retry';
import { DomainError } from '../platform/domain-error';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { UpdateBuilder } from '../platform/expressions';
import { tenantPk } from '../platform/keys';
import { tableName } from '../platform/config';
import { inOrder } from '../platform/fields';
import { queryPage, tenantItemsPage } from '../platform/pagination';
import { seal, unseal } from '../platform/sealed';
import type { EventEnvelope, EventType } from '../events/catalog';
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  Subscription,
  WebhookEndpoint,
  WebhookSecret,
} from './webhook';

/**
 * The only code that knows how webhook endpoints and deliveries are keyed.
 *   pk TENANT#<t>  sk WHK#<id>        an endpoint; its secrets are sealed with the data key
 *   pk TENANT#<t>  sk DLV#<id>        a delivery: the event payload and every attempt
 *   pk TENANT#<t>  sk WHKSUB           the tenant's subscription version, bumped by every endpoint write
 * Delivery indexes (sk = delivery id, which sorts by event time):
 *   gsi1 per endpoint | gsi2 per endpoint and status | gsi3 per tenant and status (the failed view)
 *   gsi4 DLVFAILED, only while failed: every tenant's failures, for operators (npm run ops)
 *   gsi5 only while pending, what the sweeper finds overdue: DLVDUE#<shard>, sk next_attempt_at, while
 *        the attempt waits on the queue; DLVLEASE#<shard>, sk lease_until, while a worker makes it
 */
const endpointKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `WHK#${id}` });
const subscriptionsKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'WHKSUB' });
const deliveryKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `DLV#${id}` });
export const FAILED_INDEX_PK = 'DLVFAILED';
/** Pending deliveries in the due index (platform/due-index), spread over its shards so every attempt's write does not hit one hot key. */
const DUE_KIND = 'DLVDUE';
/** Pending deliveries whose attempt a worker holds, by the end of its lease. */
const LEASED_KIND = 'DLVLEASE';

export const ENDPOINT_FIELDS = [
  'id',
  'tenant_id',
  'url',
  'events',
  'description',
  'is_active',
  'created_at',
  'updated_at',
  'version',
] as const;
export const DELIVERY_FIELDS = [
  'id',
  'tenant_id',
  'webhook_id',
  'event_id',
  'event_type',
  'status',
  'cycle',
  'cycle_attempts',
  'attempts',
  'next_attempt_at',
  'failure_reason',
  'created_at',
  'updated_at',
  'succeeded_at',
  'failed_at',
] as const;

const endpointFromItem = (item: Record<string, unknown>) => inOrder<WebhookEndpoint>(item, ENDPOINT_FIELDS);
const ATTEMPT_FIELDS = ['at', 'status_code', 'duration_ms', 'error', 'response_body'] as const;
function deliveryFromItem(item: Record<string, unknown>): Delivery {
  const d = inOrder<Delivery>(item, DELIVERY_FIELDS);
  return {
    ...d,
    attempts: ((d.attempts ?? []) as unknown as Record<string, unknown>[]).map((a) =>
      inOrder<DeliveryAttempt>(a, ATTEMPT_FIELDS),
    ),
  };
}

/** At most this many endpoints per tenant: the dispatcher reads them all in one Query. */
export const MAX_ENDPOINTS = 50;

/**
 * Every endpoint write bumps the tenant's subscription version in the same transaction (see
 * writeEndpoint and createEndpoint). The dispatcher reads the versions (strongly consistent) with each
 * batch and re-reads the endpoints of a tenant whose version moved: an event committed after a 2xx
 * therefore always sees the change. Written apart, a crash or a lost response between the two writes
 * would leave the change without its bump, and the client's retry, finding nothing left to change, would
 * not bump either: warm dispatchers would keep the old endpoint.
 */
const subscriptionBump = (tenantId: string): TransactItem => ({
  Update: {
    TableName: tableName('main'),
    Key: subscriptionsKey(tenantId),
    UpdateExpression: 'ADD #version :one',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':one': 1 },
  },
});

/**
 * Writes one endpoint item (`write`, conditional on the endpoint existing at the version read) together
 * with the subscription bump. A refused condition is version_mismatch if the endpoint is there, else
 * not_found; a conflict with a concurrent endpoint write is retried.
 */
async function writeEndpoint(tenantId: string, write: TransactItem): Promise<void> {
  try {
    await retryOnConflict(
      () => db().send(new TransactWriteCommand({ TransactItems: [write, subscriptionBump(tenantId)] })),
      {
        attempts: 5,
        retryable: transactionConflicted,
      },
    );
  } catch (error) {
    if (!transactionConditionFailed(error, [0])) throw error;
    throw transactionRefusedItem(error, 0) ? DomainError.versionMismatch() : DomainError.notFound('The webhook');
  }
}

/** The subscription version of each tenant (0 if it never had an endpoint), in one strongly consistent read. */
export async function subscriptionVersions(tenantIds: string[]): Promise<Map<string, number>> {
  const items = tenantIds.length ? await getMany(tableName('main'), tenantIds.map(subscriptionsKey)) : [];
  return new Map(tenantIds.map((tenantId, i) => [tenantId, Number(items[i]?.version ?? 0)]));
}

/** Another endpoint write came between a count of the endpoints and a creation: count again. */
export class EndpointsChanged extends Error {
  constructor() {
    super('webhook endpoints changed concurrently');
    this.name = 'EndpointsChanged';
  }
}

/**
 * How many endpoints a tenant has (up to MAX_ENDPOINTS + 1), with the subscription version they are at.
 * The version is read first, then the endpoints: a creation that commits after the version read moves
 * the version (so a write conditional on it fails), and one before it is in the count. Read the other way
 * round, or in parallel, a creation landing between the two reads would be missed by both.
 */
export async function endpointCount(tenantId: string): Promise<{ count: number; version: number }> {
  const version = (await subscriptionVersions([tenantId])).get(tenantId) ?? 0;
  return { count: (await allEndpoints(tenantId)).length, version };
}

/**
 * Creates the endpoint and bumps the subscription version in one transaction, on condition that the
 * version is still `countedAt` (every endpoint write moves it): a count made at that version still holds,
 * so concurrent creations cannot take a tenant past its limit (EndpointsChanged: count again).
 */
export async function createEndpoint(
  endpoint: WebhookEndpoint,
  secrets: WebhookSecret[],
  countedAt: number,
): Promise<void> {
  const table = tableName('main');
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: {
                ...endpointKey(endpoint.tenant_id, endpoint.id),
                ...endpoint,
                active_from: endpoint.created_at,
                secrets: await seal(secrets),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: table,
              Key: subscriptionsKey(endpoint.tenant_id),
              UpdateExpression: 'SET #version = :next',
              ConditionExpression: countedAt === 0 ? 'attribute_not_exists(#version)' : '#version = :counted',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: {
                ':next': countedAt + 1,
                ...(countedAt === 0 ? {} : { ':counted': countedAt }),
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (transactionConditionFailed(error, [1]) || transactionConflicted(error)) throw new EndpointsChanged();
    throw error;
  }
}

export async function getEndpoint(
  tenantId: string,
  id: string,
): Promise<(WebhookEndpoint & { secrets: WebhookSecret[] }) | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: endpointKey(tenantId, id), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  return { ...endpointFromItem(out.Item), secrets: await unseal<WebhookSecret[]>(String(out.Item.secrets)) };
}

/** Every endpoint of a tenant (bounded by MAX_ENDPOINTS), without secrets: what the dispatcher matches. */
export async function allEndpoints(tenantId: string): Promise<(WebhookEndpoint & Subscription)[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      // Strongly consistent: an endpoint created just before an event must be seen.
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':p': 'WHK#' },
      Limit: MAX_ENDPOINTS + 1,
    }),
  );
  return (out.Items ?? []).map((item) => ({
    ...endpointFromItem(item),
    active_from: item.active_from as string | undefined,
  }));
}

export async function listEndpoints(tenantId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(tenantId, 'WHK#', 'webhooks', request);
  return { ...page, items: page.items.map(endpointFromItem) };
}

/**
 * Applies `changes` (null removes a field) to the endpoint as it was read, in one transaction with the
 * subscription bump, on condition that it is still at the version read. Returns the endpoint as written.
 */
export async function updateEndpoint(
  current: WebhookEndpoint,
  changes: Record<string, unknown>,
  now: string,
): Promise<WebhookEndpoint> {
  const update = versionedUpdate(changes, now);
  update.when(`attribute_exists(${update.name('pk')})`).whenEquals('version', current.version);
  await writeEndpoint(current.tenant_id, {
    Update: {
      TableName: tableName('main'),
      Key: endpointKey(current.tenant_id, current.id),
      ...update.build(),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
  const after: Record<string, unknown> = { ...current, updated_at: now, version: current.version + 1 };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete after[field];
    else if (value !== undefined) after[field] = value;
  }
  return endpointFromItem(after);
}

/** Conditional on the version read, so two concurrent rotations cannot silently drop a secret (412). */
export async function replaceSecrets(current: WebhookEndpoint, secrets: WebhookSecret[], now: string) {
  return updateEndpoint(current, { secrets: await seal(secrets) }, now);
}

/** Deletes the endpoint, on condition of `expectedVersion` when one is given; false if there was none. */
export async function deleteEndpoint(tenantId: string, id: string, expectedVersion?: number): Promise<boolean> {
  try {
    await writeEndpoint(tenantId, {
      Delete: {
        TableName: tableName('main'),
        Key: endpointKey(tenantId, id),
        ConditionExpression:
          expectedVersion === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND version = :version',
        ...(expectedVersion === undefined ? {} : { ExpressionAttributeValues: { ':version': expectedVersion } }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return false;
    throw error;
  }
}

function statusIndexes(d: Pick<Delivery, 'tenant_id' | 'webhook_id' | 'id' | 'status'>, failedAt: string | null) {
  const tenantId = tenantPk(d.tenant_id);
  return {
    gsi1pk: `${tenantId}#WHK#${d.webhook_id}#DLV`,
    gsi1sk: d.id,
    gsi2pk: `${tenantId}#WHK#${d.webhook_id}#DLV#${d.status}`,
    gsi2sk: d.id,
    gsi3pk: `${tenantId}#DLV#${d.status}`,
    gsi3sk: d.id,
    ...(d.status === 'failed' ? { gsi4pk: FAILED_INDEX_PK, gsi4sk: `${failedAt}#${d.tenant_id}#${d.id}` } : {}),
  };
}

/** While a delivery is pending with a next attempt, the sweeper can find it by that time. */
const dueIndex = (id: string, nextAttemptAt: string | null) =>
  nextAttemptAt ? dueIndexKeys(DUE_KIND, id, nextAttemptAt) : {};

/** Creates a delivery unless it exists (a stream retry re-derives the same id); true if it created it. */
export async function createDelivery(delivery: Delivery, payload: EventEnvelope): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName('main'),
        Item: {
          ...deliveryKey(delivery.tenant_id, delivery.id),
          ...statusIndexes(delivery, null),
          ...dueIndex(delivery.id, delivery.next_attempt_at),
          ...delivery,
          payload,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

export async function getDelivery(
  tenantId: string,
  id: string,
): Promise<(Delivery & { payload: EventEnvelope }) | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: deliveryKey(tenantId, id), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  return { ...deliveryFromItem(out.Item), payload: out.Item.payload as EventEnvelope };
}

/**
 * Moves a delivery of the given cycle to `status`, appending an attempt if one was made. `expect` guards
 * the change (a stale cycle or a finished delivery is left alone).
 */
export async function settleDelivery(
  d: Pick<Delivery, 'tenant_id' | 'webhook_id' | 'id'>,
  change: {
    status: DeliveryStatus;
    cycle?: number;
    /** Attempts this cycle already has: the write happens only if that is still true (no duplicates). */
    attemptsSoFar?: number;
    attempt?: DeliveryAttempt;
    fields?: Record<string, unknown>;
    /** Attempts dropped from the log (see restartDelivery): added to its count of earlier ones. */
    earlierAttempts?: number;
    /**
     * The lease this writer took (takeAttempt's `lease_until`): the write is refused if another worker's
     * lease is on the delivery, which it may only be if this one's ended mid-attempt and the attempt was
     * taken over; erasing it would let the next attempt overlap that worker's POST.
     */
    lease?: string;
    expect: DeliveryStatus[];
  },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  // gsi1 (per endpoint) never changes; only the status-keyed indexes move.
  const { gsi1pk: _p, gsi1sk: _s, ...indexes } = statusIndexes({ ...d, status: change.status }, at);
  const nextAttemptAt = change.fields?.next_attempt_at as string | null | undefined;
  const due = change.status === 'pending' && typeof nextAttemptAt === 'string' ? dueIndex(d.id, nextAttemptAt) : {};
  const update = new UpdateBuilder().set('status', change.status).set('updated_at', at);
  // Fields are SET as given: a null is stored as null (the API shows it), not removed.
  for (const [k, v] of Object.entries({ ...indexes, ...due, ...change.fields })) update.set(k, v);
  if (change.attempt) {
    const attempts = update.name('attempts');
    const cycleAttempts = update.name('cycle_attempts');
    update.setExpression(
      `${attempts} = list_append(if_not_exists(${attempts}, ${update.value([])}), ${update.value([change.attempt])})`,
    );
    update.setExpression(`${cycleAttempts} = if_not_exists(${cycleAttempts}, ${update.value(0)}) + ${update.value(1)}`);
  }
  if (change.earlierAttempts) update.add('earlier_attempts', change.earlierAttempts);
  if (change.status !== 'failed') update.remove('gsi4pk').remove('gsi4sk');
  if (change.status !== 'pending' || nextAttemptAt === null) update.remove('gsi5pk').remove('gsi5sk');
  // Whatever the change, no attempt is under way any more.
  update.remove('lease_until');
  update.whenIn('status', change.expect);
  if (change.cycle !== undefined) update.whenEquals('cycle', change.cycle);
  if (change.attemptsSoFar !== undefined) update.whenEquals('cycle_attempts', change.attemptsSoFar);
  if (change.lease !== undefined) {
    const lease = update.name('lease_until');
    update.when(`(attribute_not_exists(${lease}) OR ${lease} = ${update.value(change.lease)})`);
  }
  // A retry of this very write (its response lost) counts as made (db.ts); any other writer's change (a
  // duplicate message's, a concurrent replay's) is a refusal.
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({ TableName: tableName('main'), Key: deliveryKey(d.tenant_id, d.id), ...update.build() }),
    ),
  );
}

/**
 * A delivery keeps at most this many attempts (the newest) across replay cycles, and counts the older
 * ones in `earlier_attempts`: each attempt holds up to 1 KB of response, and an item may not pass 400 KB.
 * One cycle adds at most the retry schedule's attempts (6 by default), so trimming at each replay bounds it.
 */
export const KEPT_ATTEMPTS = 20;

/**
 * Starts a new cycle (a replay): pending again, with the full retry schedule, on condition that the
 * delivery is still at the cycle read (two replays of one read never both start one, nor queue it
 * twice). Attempts beyond KEPT_ATTEMPTS are dropped, oldest first, and counted. Returns the new cycle.
 */
export async function restartDelivery(d: Delivery, now: Date): Promise<number | undefined> {
  const cycle = d.cycle + 1;
  const dropped = Math.max(0, d.attempts.length - KEPT_ATTEMPTS);
  const ok = await settleDelivery(
    d,
    {
      status: 'pending',
      cycle: d.cycle,
      fields: {
        cycle,
        cycle_attempts: 0,
        failure_reason: null,
        failed_at: null,
        next_attempt_at: now.toISOString(),
        ...(dropped > 0 ? { attempts: d.attempts.slice(dropped) } : {}),
      },
      ...(dropped > 0 ? { earlierAttempts: dropped } : {}),
      expect: ['failed', 'succeeded', 'cancelled'],
    },
    now,
  );
  return ok ? cycle : undefined;
}

type DeliveryFilter = {
  webhookId?: string;
  status?: DeliveryStatus;
  eventType?: EventType;
  fromId?: string;
  toId?: string;
};

/**
 * One index per list: by endpoint, by endpoint and status, or by status across the tenant, over a range
 * of delivery ids (they sort by event time). One Query per page, unless an event type (a filter on that
 * Query) leaves it short: then it reads on, within queryPage's bound.
 */
export async function listDeliveries(tenantId: string, f: DeliveryFilter, request: { limit: number; cursor?: string }) {
  const [n, pk] = f.webhookId
    ? f.status
      ? [2, `${tenantPk(tenantId)}#WHK#${f.webhookId}#DLV#${f.status}`]
      : [1, `${tenantPk(tenantId)}#WHK#${f.webhookId}#DLV`]
    : [3, `${tenantPk(tenantId)}#DLV#${f.status ?? 'failed'}`];
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: `gsi${n}`,
      KeyConditionExpression: `gsi${n}pk = :pk AND gsi${n}sk BETWEEN :from AND :to`,
      ExpressionAttributeValues: {
        ':pk': pk,
        ':from': f.fromId ?? 'dlv_',
        ':to': f.toId ?? 'dlv_~',
        ...(f.eventType ? { ':type': f.eventType } : {}),
      },
      ...(f.eventType ? { FilterExpression: 'event_type = :type' } : {}),
    },
    request,
    {
      owner: tenantId,
      list: `deliveries:${pk}:${f.fromId ?? ''}:${f.toId ?? ''}${f.eventType ? `:${f.eventType}` : ''}`,
    },
    ['pk', 'sk', `gsi${n}pk`, `gsi${n}sk`],
  );
  return { ...page, items: page.items.map(deliveryFromItem) };
}

/** Operators: failed deliveries of every tenant, newest failure first. */
export async function listAllFailed(request: { limit: number; cursor?: string }) {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :pk',
      ExpressionAttributeValues: { ':pk': FAILED_INDEX_PK },
    },
    request,
    { owner: 'platform', list: 'failed-deliveries' },
    ['pk', 'sk', 'gsi4pk', 'gsi4sk'],
  );
  return { ...page, items: page.items.map(deliveryFromItem) };
}

/** An overdue delivery, with the due-index entry it was found under: a claim holds only if that is unchanged. */
export type SweptDelivery = Delivery & {
  payload?: EventEnvelope;
  overdue_since: string;
  /** Overdue because the lease of the worker making its attempt ended (else: its queue message was lost). */
  lease_ended: boolean;
  gsi5pk: unknown;
};

/**
 * Pending deliveries the sweeper should take over, oldest first in each due shard: those waiting on the
 * queue whose attempt was due before `dueBefore`, and those whose attempt's lease ended before `now`.
 */
export async function overdueDeliveries(dueBefore: Date, now: Date, limitPerShard: number): Promise<SweptDelivery[]> {
  const [waiting, leased] = await Promise.all([
    dueItems(DUE_KIND, dueBefore, limitPerShard),
    dueItems(LEASED_KIND, now, limitPerShard),
  ]);
  return [...waiting, ...leased].map((item) => ({
    ...deliveryFromItem(item),
    payload: item.payload as EventEnvelope | undefined,
    // The due index's sort key: when the attempt was due, or when the lease of a lost one ended.
    overdue_since: String(item.gsi5sk),
    lease_ended: String(item.gsi5pk).startsWith(`${LEASED_KIND}#`),
    gsi5pk: item.gsi5pk,
  }));
}

/**
 * Takes an attempt for a worker: a lease until `until`, only if this message is still the one expected
 * (same cycle and attempt count) and no other worker holds a live lease on it. False: drop the message
 * (a duplicate, a stale one, or one another worker is making; if that worker dies, the sweeper takes the
 * attempt over once its lease ends). While held, the delivery is in the due index by the lease's end.
 */
export async function takeAttempt(
  d: Pick<Delivery, 'tenant_id' | 'id'>,
  expected: { cycle: number; attemptsSoFar: number },
  until: Date,
  now: Date,
): Promise<boolean> {
  const leaseUntil = until.toISOString();
  const index = dueIndexKeys(LEASED_KIND, d.id, leaseUntil);
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: deliveryKey(d.tenant_id, d.id),
        UpdateExpression: 'SET lease_until = :until, gsi5pk = :duePk, gsi5sk = :until',
        ConditionExpression:
          '#status = :pending AND #cycle = :cycle AND cycle_attempts = :attempts AND ' +
          '(attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#status': 'status', '#cycle': 'cycle' },
        ExpressionAttributeValues: {
          ':until': leaseUntil,
          ':duePk': index.gsi5pk,
          ':pending': 'pending',
          ':cycle': expected.cycle,
          ':attempts': expected.attemptsSoFar,
          ':now': now.toISOString(),
        },
      }),
    ),
  );
}

/**
 * Claims an overdue delivery for the sweeper, only if nothing happened to it since it was read (same
 * cycle, attempts and due-index entry): two sweepers never both re-queue it. The attempt is then due
 * `at` (now) and waits on the queue again, so it is swept once more should that message be lost too.
 */
export async function claimOverdue(d: SweptDelivery, at: Date): Promise<boolean> {
  const due = at.toISOString();
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: deliveryKey(d.tenant_id, d.id),
        UpdateExpression: 'SET next_attempt_at = :due, gsi5pk = :duePk, gsi5sk = :due REMOVE lease_until',
        ConditionExpression:
          '#status = :pending AND #cycle = :cycle AND cycle_attempts = :attempts AND gsi5pk = :seenPk AND gsi5sk = :seenSk',
        ExpressionAttributeNames: { '#status': 'status', '#cycle': 'cycle' },
        ExpressionAttributeValues: {
          ':due': due,
          ':duePk': dueIndexKeys(DUE_KIND, d.id, due).gsi5pk,
          ':pending': 'pending',
          ':cycle': d.cycle,
          ':attempts': d.cycle_attempts,
          ':seenPk': d.gsi5pk,
          ':seenSk': d.overdue_since,
        },
      }),
    ),
  );
}
