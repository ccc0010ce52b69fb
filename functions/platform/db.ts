import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  UpdateCommand,
  type TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { DomainError } from './domain-error';
import { UpdateBuilder } from './expressions';

/**
 * One document client per process, created on first use. The endpoint comes from the SDK's own
 * AWS_ENDPOINT_URL_DYNAMODB variable, which the local runtime sets to DynamoDB Local.
 */
let client: DynamoDBDocumentClient | undefined;

/**
 * Calls made through the client: `npm run bench` reads it to count round trips per request, and turns on
 * `captureCapacity` to add up the capacity units DynamoDB reports.
 */
export const dbStats = { calls: 0, byCommand: {} as Record<string, number>, captureCapacity: false, capacityUnits: 0 };

type Capacity = { CapacityUnits?: number };

/** One item of a TransactWriteItems call: how a change and its events (the outbox) commit together. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export function db(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient({ maxAttempts: 3 });
    base.middlewareStack.add(
      (next, context) => async (args) => {
        dbStats.calls += 1;
        const name = String(context.commandName ?? 'unknown');
        dbStats.byCommand[name] = (dbStats.byCommand[name] ?? 0) + 1;
        if (!dbStats.captureCapacity) return next(args);
        (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
          dbStats.capacityUnits += c.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'countRoundTrips' },
    );
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Runs a conditional write: true if it was made, false if its condition failed (an item already there,
 * a status that moved on). For a transaction, only the conditions at `positions` count as "failed"
 * (all of them when not given); any other error is thrown.
 */
export async function conditionalWrite(write: () => Promise<unknown>, positions?: number[]): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error) || transactionConditionFailed(error, positions)) return false;
    throw error;
  }
}

/** True for a transaction cancelled because one of its conditions failed (at the given positions). */
export function transactionConditionFailed(error: unknown, positions?: number[]): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((r, i) => r.Code === 'ConditionalCheckFailed' && (!positions || positions.includes(i)));
}

/** True for a transaction cancelled because another transaction was writing the same items. */
export function transactionConflicted(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TransactionConflictException') return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((r) => r.Code === 'TransactionConflict');
}

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);
export const isThrottling = (error: unknown): boolean => error instanceof Error && THROTTLING.has(error.name);

/** One BatchGetItem for keys that may live in different features; results follow the order of `keys`. */
export async function getMany(
  table: string,
  keys: Record<string, string>[],
  keyAttributes: readonly string[] = ['pk', 'sk'],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] | undefined = keys;
  for (let attempt = 0; pending && pending.length > 0 && attempt < 5; attempt++) {
    const out = await db().send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(out.Responses?.[table] ?? []));
    pending = out.UnprocessedKeys?.[table]?.Keys as Record<string, unknown>[] | undefined;
  }
  if (pending && pending.length > 0)
    throw Object.assign(new Error('BatchGet left keys unprocessed'), { name: 'ThrottlingException' });
  // Key attributes are strings or numbers.
  const id = (item: Record<string, unknown>) =>
    keyAttributes.map((k) => String((item[k] as string | number | undefined) ?? '')).join('\u0000');
  const byKey = new Map(found.map((item) => [id(item), item]));
  return keys.map((key) => byKey.get(id(key)));
}

/**
 * The update of a versioned change: SET the given fields (null REMOVEs one, undefined leaves it alone),
 * `updated_at`, and add one to `version`. Callers add their condition on the builder.
 */
export function versionedUpdate(changes: Record<string, unknown>, now: string): UpdateBuilder {
  return new UpdateBuilder().assign(changes).set('updated_at', now).add('version', 1);
}

/**
 * SET the given fields, bump `version` and `updated_at`, conditional on the item existing and, when
 * given, on the version the caller read (If-Match). Returns the new item; not_found or version_mismatch
 * on failure.
 */
export async function updateVersioned(
  table: string,
  key: Record<string, string>,
  changes: Record<string, unknown>,
  opts: { now: string; expectedVersion?: number; what: string },
): Promise<Record<string, unknown>> {
  const update = versionedUpdate(changes, opts.now);
  update.when(`attribute_exists(${update.name('pk')})`);
  if (opts.expectedVersion !== undefined) update.whenEquals('version', opts.expectedVersion);
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        ...update.build(),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return out.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) {
      throw (error as { Item?: unknown }).Item !== undefined
        ? DomainError.versionMismatch()
        : DomainError.notFound(opts.what);
    }
    throw error;
  }
}
