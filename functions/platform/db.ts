import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { DynamoDBClient, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { DomainError } from './domain-error';
import { backoffMs, retryOnConflict } from './retry';
import { UpdateBuilder } from './expressions';
import { clientMade } from './client-hooks';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One document client per process, created on first use. The endpoint comes from the SDK's own
 * AWS_ENDPOINT_URL_DYNAMODB variable, which the local runtime sets to DynamoDB Local.
 */
let client: DynamoDBDocumentClient | undefined;

/** One item of a TransactWriteItems call: how a change and its events (the outbox) commit together. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export function db(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient({ maxAttempts: 3 });
    recognizeOwnRetriedWrites(base);
    clientMade({ service: 'dynamodb', client: base });
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/**
 * A conditional PutItem whose attempt committed but whose response was lost (a reset connection, a
 * timeout) is sent again by the SDK, and its own item then fails its condition: a create answered "already
 * there". When the item a retry's refusal returns is exactly the item being put (ids and timestamps
 * included), the earlier attempt wrote it, and the call succeeded. The refused item comes with the
 * refusal (ReturnValuesOnConditionCheckFailure, asked for here on conditional writes), at no extra cost.
 * A conditional DeleteItem retried after an attempt that got no answer likewise finds its item gone: the
 * item being absent is what the delete asked for, so the call succeeded (had another writer deleted it in
 * between, both asked for the same end, as two DELETE requests do). After a throttled attempt, which
 * DynamoDB answered having written nothing, a refusal stands (the item was not there: 404).
 *
 * Every UpdateItem names itself: it sets `wid` (its write id) to an id of its own, on condition that the item
 * does not already carry that id. Sent again after a lost response, it is refused by its own write, which
 * is then the call's success (with the item as it now is, for ALL_NEW or UPDATED_NEW). So an update is made
 * once per call, whatever its own condition: a version is not bumped twice, a lease the call took is its
 * own, a counter is not added to twice. Should another write land on the item between the attempt and its
 * retry (milliseconds), the retry meets that writer's id, and its own condition decides, as it would
 * without this. An update that returns the old item (ALL_OLD, UPDATED_OLD) is left as it is, and
 * transactions have their own token (ClientRequestToken).
 */
function recognizeOwnRetriedWrites(client: DynamoDBClient): void {
  type Args = { input: Record<string, unknown>; request?: { headers?: Record<string, string> } };
  type Stack = {
    add(
      middleware: (
        next: (args: Args) => Promise<unknown>,
        context: { commandName?: string },
      ) => (args: Args) => Promise<unknown>,
      options: { step: 'initialize' | 'finalizeRequest'; name: string; priority?: 'high' | 'low' },
    ): void;
  };
  const stack = client.middlewareStack as unknown as Stack;
  const isConditional = (command: string, args: Args, context: { commandName?: string }) =>
    context.commandName === command && args.input.ConditionExpression !== undefined;
  const isConditionalPut = (args: Args, context: { commandName?: string }) =>
    isConditional('PutItemCommand', args, context);
  const isConditionalDelete = (args: Args, context: { commandName?: string }) =>
    isConditional('DeleteItemCommand', args, context);
  // One middleware, before any other (so that everything after it, the SDK's retries included, sends the
  // one id), and outermost on the way back (so no caller sees an update's id in what it reads). Inputs are
  // plain here: the document client marshals them later.
  const prepared = (args: Args, context: { commandName?: string }): Args => {
    if (context.commandName === 'UpdateItemCommand') return { ...args, input: namedUpdate(args.input) };
    if (
      (isConditionalPut(args, context) || isConditionalDelete(args, context)) &&
      args.input.ReturnValuesOnConditionCheckFailure === undefined
    )
      return { ...args, input: { ...args.input, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
    return args;
  };
  stack.add(
    (next, context) => async (args) => {
      const result = (await next(prepared(args, context))) as { output?: Record<string, unknown> };
      if (result.output) withoutWriteIds(result.output);
      return result;
    },
    { step: 'initialize', name: 'ownWriteIds', priority: 'high' },
  );
  // Calls (by their input, the same object through the SDK's attempts) an attempt of which ended without
  // DynamoDB's answer: that attempt may have committed. A throttled attempt was answered, and wrote nothing.
  const unanswered = new WeakSet<object>();
  stack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        // The SDK numbers its attempts: amz-sdk-request: attempt=2; max=3.
        const retry = /attempt=(?!1;)\d+/.test(args.request?.headers?.['amz-sdk-request'] ?? '');
        const found = (error as { Item?: Record<string, AttributeValue> }).Item;
        const mine = args.input.Item as Record<string, AttributeValue> | undefined;
        if (retry && isConditionFailure(error) && isConditionalPut(args, context) && found && mine)
          if (isDeepStrictEqual(unmarshall(found), unmarshall(mine)))
            return { output: { $metadata: {} }, response: {} };
        if (isConditionFailure(error) && context.commandName === 'UpdateItemCommand' && found) {
          const own = ownUpdateOutput(args.input, unmarshall(found));
          if (own) return { output: own, response: {} };
        }
        if (isConditionFailure(error) && isConditionalDelete(args, context) && !found && unanswered.has(args.input))
          return { output: { $metadata: {} }, response: {} };
        const answered = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (answered === undefined) unanswered.add(args.input);
        throw error;
      }
    },
    { step: 'finalizeRequest', name: 'recognizeOwnRetriedWrite', priority: 'low' },
  );
}

/**
 * The attribute naming an item's last UpdateItem, its write id (see recognizeOwnRetriedWrites). Short: every
 * updated item carries it, and DynamoDB bills an attribute's name with its value. Never shown by the API.
 */
export const LAST_WRITE_ID = 'wid';
const WRITE_ID_NAME = '#wid';
const WRITE_ID_VALUE = ':wid';

/**
 * 64 random bits in 11 characters: the id rides on every item an update writes, and an item's size is its
 * cost. It is only ever compared with the id on the same item, so a collision is out of reach.
 */
const newWriteId = () => randomBytes(8).toString('base64url');

/**
 * An UpdateItem's input (plain) that also sets LAST_WRITE_ID to a new id, on condition that the item does
 * not carry it already. One that returns the item as it was (ALL_OLD, UPDATED_OLD) is left as it is: its
 * retry could not answer what the first attempt saw.
 */
function namedUpdate(input: Record<string, unknown>): Record<string, unknown> {
  if (input.ReturnValues === 'ALL_OLD' || input.ReturnValues === 'UPDATED_OLD') return input;
  const expression = (input.UpdateExpression as string | undefined) ?? '';
  const set = `${WRITE_ID_NAME} = ${WRITE_ID_VALUE}`;
  // SET is a reserved word: in an update expression, it can only be the clause's keyword.
  const named = /(^|\s)SET\s/i.test(expression)
    ? expression.replace(/(^|\s)SET\s/i, (keyword) => `${keyword}${set}, `)
    : `SET ${set} ${expression}`;
  const notMine = `(attribute_not_exists(${WRITE_ID_NAME}) OR ${WRITE_ID_NAME} <> ${WRITE_ID_VALUE})`;
  const condition =
    input.ConditionExpression === undefined ? notMine : `${notMine} AND (${input.ConditionExpression as string})`;
  return {
    ...input,
    UpdateExpression: named.trim(),
    ConditionExpression: condition,
    ExpressionAttributeNames: {
      ...(input.ExpressionAttributeNames as object | undefined),
      [WRITE_ID_NAME]: LAST_WRITE_ID,
    },
    ExpressionAttributeValues: {
      ...(input.ExpressionAttributeValues as object | undefined),
      [WRITE_ID_VALUE]: newWriteId(),
    },
    ReturnValuesOnConditionCheckFailure: input.ReturnValuesOnConditionCheckFailure ?? 'ALL_OLD',
  };
}

/**
 * An UpdateItem input (marshalled, as sent) under a new write id: replaying a recorded update (the bench's
 * minimal server does) is then a new write, not the retry of the one recorded, which its own id refuses.
 */
export function withNewWriteId<T extends object>(input: T): T {
  const values = (input as { ExpressionAttributeValues?: Record<string, AttributeValue> }).ExpressionAttributeValues;
  if (values?.[WRITE_ID_VALUE] === undefined) return input;
  return { ...input, ExpressionAttributeValues: { ...values, [WRITE_ID_VALUE]: { S: newWriteId() } } };
}

/** Takes LAST_WRITE_ID out of the items a call's output holds (Get, Query, Update, batch and transaction reads). */
function withoutWriteIds(output: Record<string, unknown>): void {
  const strip = (item: unknown) => {
    if (item && typeof item === 'object') delete (item as Record<string, unknown>)[LAST_WRITE_ID];
  };
  strip(output.Item);
  strip(output.Attributes);
  if (Array.isArray(output.Items)) output.Items.forEach(strip);
  const responses = output.Responses;
  if (Array.isArray(responses)) responses.forEach((r) => strip((r as { Item?: unknown } | undefined)?.Item));
  else if (responses && typeof responses === 'object') Object.values(responses).flat().forEach(strip);
}

/**
 * The output of an UpdateItem (input marshalled) that its refusal shows it made itself: the item found
 * carries its id. Undefined for another writer's item.
 */
function ownUpdateOutput(input: Record<string, unknown>, found: Record<string, unknown>) {
  const values = input.ExpressionAttributeValues as Record<string, AttributeValue> | undefined;
  const id = values?.[WRITE_ID_VALUE]?.S;
  if (id === undefined || found[LAST_WRITE_ID] !== id) return undefined;
  const returnsItem = input.ReturnValues === 'ALL_NEW' || input.ReturnValues === 'UPDATED_NEW';
  return { $metadata: {}, ...(returnsItem ? { Attributes: found } : {}) };
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

/** Why DynamoDB cancelled a transaction, one reason per item (empty for any other error). */
const cancellationReasons = (error: Error): { Code?: string }[] =>
  (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];

/**
 * The item that refused a transaction's condition at `position` (asked for with
 * ReturnValuesOnConditionCheckFailure: ALL_OLD), plain; undefined when that condition held or found none.
 */
export function transactionRefusedItem(error: unknown, position: number): Record<string, unknown> | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reason = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[] })
    .CancellationReasons?.[position];
  return reason?.Code === 'ConditionalCheckFailed' && reason.Item ? plainItem(reason.Item) : undefined;
}

/** True for a transaction cancelled because one of its conditions failed (at the given positions). */
export function transactionConditionFailed(error: unknown, positions?: number[]): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = cancellationReasons(error);
  return reasons.some((r, i) => r.Code === 'ConditionalCheckFailed' && (!positions || positions.includes(i)));
}

/** True for a transaction cancelled because another transaction was writing the same items. */
export function transactionConflicted(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TransactionConflictException') return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const reasons = cancellationReasons(error);
  return reasons.some((r) => r.Code === 'TransactionConflict');
}

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);
/** Throttled, directly or as the reason a transaction was cancelled. */
export const isThrottling = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  if (THROTTLING.has(error.name)) return true;
  if (error.name !== 'TransactionCanceledException') return false;
  const reasons = cancellationReasons(error);
  return reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'ProvisionedThroughputExceeded');
};

/**
 * One BatchGetItem for keys that may live in different features; results follow the order of `keys`.
 * Keys DynamoDB leaves unprocessed (throttled) are asked for again after a jittered, doubling pause
 * (backoffMs: up to 320 ms), at most four times, as AWS advises: retried at once, they meet the same
 * throttling. `sleep` is for tests.
 */
export async function getMany(
  table: string,
  keys: Record<string, string>[],
  keyAttributes: readonly string[] = ['pk', 'sk'],
  sleep: (ms: number) => Promise<void> = pause,
): Promise<(Record<string, unknown> | undefined)[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] | undefined = keys;
  for (let attempt = 0; pending && pending.length > 0 && attempt < 5; attempt++) {
    if (attempt > 0) await sleep(backoffMs(attempt));
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

/** The most pages queryAll reads (a page is up to 1 MB): far more than any partition it is meant for. */
export const QUERY_ALL_MAX_PAGES = 50;

/** Every item a Query finds, page after page: for partitions known to be small (a customer's conversations). */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]>;
/** With `most`: undefined when the Query finds more than that many (it stops reading there). */
export async function queryAll(input: QueryCommandInput, most: number): Promise<Record<string, unknown>[] | undefined>;
export async function queryAll(input: QueryCommandInput, most?: number) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  let pages = 0;
  do {
    // A "small" partition that is not: fail loudly instead of reading without end.
    if (++pages > QUERY_ALL_MAX_PAGES) throw new Error(`queryAll read more than ${QUERY_ALL_MAX_PAGES} pages`);
    const limit = most === undefined ? {} : { Limit: most + 1 - items.length };
    const out = await db().send(new QueryCommand({ ...input, ...limit, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    if (most !== undefined && items.length > most) return undefined;
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * A single write retried while DynamoDB refuses it because a transaction is writing the same item
 * (TransactionConflictException), with backoff: such a conflict is over in milliseconds.
 */
export const retryConflicts = <T>(write: () => Promise<T>): Promise<T> =>
  retryOnConflict(write, {
    attempts: 5,
    retryable: (error) => error instanceof Error && error.name === 'TransactionConflictException',
    exhausted: () => DomainError.conflict('concurrent_update', 'The item is changing too fast; retry.'),
  });

/**
 * Work that may be repeated as it is (a Put of a whole item, a Delete, an idempotent step) retried while
 * DynamoDB refuses its write for a moment: a transaction cancelled by a concurrent one or by throttling
 * writes nothing, and is over in milliseconds.
 */
export const retryTransient = <T>(write: () => Promise<T>): Promise<T> =>
  retryOnConflict(write, { attempts: 4, retryable: (error) => transactionConflicted(error) || isThrottling(error) });

/** Runs `work` on every item, `parallel` at a time; all are tried, then the first failure is thrown. */
export async function eachInParallel<T>(items: T[], parallel: number, work: (item: T) => Promise<unknown>) {
  const failures: unknown[] = [];
  for (let i = 0; i < items.length; i += parallel) {
    const results = await Promise.allSettled(items.slice(i, i + parallel).map(work));
    for (const r of results) if (r.status === 'rejected') failures.push(r.reason);
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * The update of a versioned change: SET the given fields (null REMOVEs one, undefined leaves it alone),
 * `updated_at`, and add one to `version`. Callers add their condition on the builder.
 */
export function versionedUpdate(changes: Record<string, unknown>, now: string): UpdateBuilder {
  return new UpdateBuilder().assign(changes).set('updated_at', now).add('version', 1);
}

/**
 * SET the given fields (and `nested` paths within map attributes), bump `version` and `updated_at`,
 * conditional on the item existing and, when given, on the version the caller read (If-Match). Returns
 * the new item; not_found or version_mismatch on failure.
 */
export async function updateVersioned(
  table: string,
  key: Record<string, string>,
  changes: Record<string, unknown>,
  opts: { now: string; expectedVersion?: number; what: string; nested?: [path: string[], value: unknown][] },
): Promise<Record<string, unknown>> {
  const update = versionedUpdate(changes, opts.now);
  for (const [path, value] of opts.nested ?? []) update.setPath(path, value);
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
      // A retry of this very update (its response lost) is its own success (recognizeOwnRetriedWrites).
      const found = (error as { Item?: unknown }).Item;
      throw found ? DomainError.versionMismatch() : DomainError.notFound(opts.what);
    }
    throw error;
  }
}

/**
 * An item a refused write returned (ReturnValuesOnConditionCheckFailure), as plain values: the document
 * client leaves it in DynamoDB's attribute-value form.
 */
export function plainItem(item: Record<string, unknown>): Record<string, unknown> {
  const pk = item.pk as { S?: string } | string | undefined;
  const plain =
    typeof pk === 'object' && pk !== null ? unmarshall(item as Record<string, AttributeValue>) : { ...item };
  delete plain[LAST_WRITE_ID];
  return plain;
}

/**
 * The item a write refused by its condition found (ReturnValuesOnConditionCheckFailure: ALL_OLD), plain;
 * undefined when there was none. Any other error is thrown again.
 */
export function refusedItem(error: unknown): Record<string, unknown> | undefined {
  if (!isConditionFailure(error)) throw error;
  const item = (error as { Item?: Record<string, unknown> }).Item;
  return item ? plainItem(item) : undefined;
}
