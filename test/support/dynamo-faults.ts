import type { MiddlewareStack } from '@smithy/types';
import { db } from '../../functions/platform/db';

/**
 * DynamoDB as AWS may behave, injected into this test process's client (the store code runs unchanged):
 * a commit whose response is lost, a replica that has not seen recent writes yet, a read that fails.
 * Each returns a `stop` that takes its middleware out again.
 */
type Input = Record<string, any>;
type Matcher = (command: string, input: Input) => boolean;

let n = 0;
function inject(
  wrap: (command: string, input: Input, next: () => Promise<{ output: Input }>) => Promise<{ output: Input }>,
): () => void {
  const name = `testFault${n++}`;
  const stack = db().middlewareStack as unknown as MiddlewareStack<any, any>;
  stack.add(
    (next, context) => async (args) =>
      (await wrap(String(context.commandName ?? ''), (args as { input: Input }).input, () => next(args))) as any,
    { step: 'initialize', name },
  );
  return () => {
    stack.remove(name);
  };
}

/** The item keys a write touches (plain form: the document client marshals after this step). */
function writtenKeys(command: string, input: Input): Input[] {
  if (command === 'PutItemCommand') return [input.Item];
  if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand') return [input.Key];
  if (command === 'TransactWriteItemsCommand')
    return (input.TransactItems as Input[]).flatMap((t) =>
      t.Put ? [t.Put.Item] : t.Update ? [t.Update.Key] : t.Delete ? [t.Delete.Key] : [],
    );
  if (command === 'BatchWriteItemCommand')
    return Object.values(input.RequestItems as Record<string, Input[]>)
      .flat()
      .map((r) => r.PutRequest?.Item ?? r.DeleteRequest?.Key);
  return [];
}
const keyOf = (item: Input) => `${String(item.pk)}\u0000${String(item.sk ?? '')}`;

/**
 * The next `times` writes that `match` accepts commit, and then fail as if their response was lost (a
 * timeout, a dropped connection): the caller cannot tell that they committed. Returns `stop`.
 */
export function loseResponseAfterCommit(match: Matcher, times = 1): () => void {
  let left = times;
  return inject(async (command, input, next) => {
    const out = await next();
    if (left > 0 && match(command, input)) {
      left--;
      throw Object.assign(new Error('socket hang up after commit'), { name: 'TimeoutError', $metadata: {} });
    }
    return out;
  });
}

/**
 * The next `times` writes that `match` accepts commit, lose their response, and are sent again, as the
 * AWS SDK's retry does after a reset connection: the second attempt meets the first one's committed write.
 */
export function retryAfterCommit(match: Matcher, times = 1): () => void {
  let left = times;
  return inject(async (command, input, next) => {
    if (left <= 0 || !match(command, input)) return next();
    left--;
    await next();
    return next();
  });
}

/** The error DynamoDB throttles a call with (the SDK retries it; failCalls injects it past those retries). */
export const throttled = (): Error =>
  Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded.'), {
    name: 'ProvisionedThroughputExceededException',
  });

/** The next `times` calls `match` accepts fail before reaching DynamoDB, with `error`. */
export function failCalls(match: Matcher, error: () => Error, times = 1): () => void {
  let left = times;
  return inject(async (command, input, next) => {
    if (left > 0 && match(command, input)) {
      left--;
      throw error();
    }
    return next();
  });
}

/**
 * A lagging replica: reads that are not strongly consistent (every index Query, and Get or Query without
 * ConsistentRead) do not see items written in the last `lagMs` through this client: a Get finds nothing,
 * a Query leaves them out. Strongly consistent reads see everything, as in DynamoDB.
 */
export function laggingReplica(lagMs: number): () => void {
  const written = new Map<string, number>();
  const recent = (item: Input | undefined) => {
    const at = item ? written.get(keyOf(item)) : undefined;
    return at !== undefined && Date.now() - at < lagMs;
  };
  return inject(async (command, input, next) => {
    const keys = writtenKeys(command, input);
    const out = await next();
    for (const key of keys) if (key) written.set(keyOf(key), Date.now());
    const eventual = input.ConsistentRead !== true || input.IndexName !== undefined;
    if (command === 'GetItemCommand' && eventual && recent(out.output.Item))
      return { ...out, output: { ...out.output, Item: undefined } };
    if (command === 'QueryCommand' && eventual && Array.isArray(out.output.Items)) {
      const items = (out.output.Items as Input[]).filter((item) => !recent(item));
      return { ...out, output: { ...out.output, Items: items, Count: items.length } };
    }
    return out;
  });
}

/** Matches a write (single or in a transaction) to an item whose sort key starts with `skPrefix`. */
export const writesTo =
  (skPrefix: string): Matcher =>
  (command, input) =>
    writtenKeys(command, input).some((key) => String(key?.sk ?? '').startsWith(skPrefix));

/**
 * Before the next `times` calls `match` accepts, runs `meanwhile` (a concurrent writer landing between
 * a read and the write that relies on it).
 */
export function beforeCalls(match: Matcher, meanwhile: () => Promise<unknown>, times = 1): () => void {
  let left = times;
  return inject(async (command, input, next) => {
    if (left > 0 && match(command, input)) {
      left--;
      await meanwhile();
    }
    return next();
  });
}

/** The next `times` BatchGetItem calls process nothing: every key comes back in UnprocessedKeys (throttled). */
export function leaveUnprocessed(times: number): () => void {
  let left = times;
  return inject(async (command, input, next) => {
    const out = await next();
    if (command !== 'BatchGetItemCommand' || left <= 0) return out;
    left--;
    const requested = input.RequestItems as Record<string, { Keys: Input[] }>;
    return {
      ...out,
      output: {
        ...out.output,
        Responses: Object.fromEntries(Object.keys(requested).map((table) => [table, []])),
        UnprocessedKeys: requested,
      },
    };
  });
}

/**
 * The next BatchGetItem whose keys `match` accepts reads them at two moments, as DynamoDB may (a batch
 * reads each item on its own, with no snapshot across them, and a throttled key is read again later): the
 * keys `early` picks as they were before `meanwhile` ran, the others as they are after it.
 */
export function batchReadStraddles(
  match: (keys: Input[]) => boolean,
  early: (key: Input) => boolean,
  meanwhile: () => Promise<unknown>,
): () => void {
  let left = 1;
  return inject(async (command, input, next) => {
    const requested = input.RequestItems as Record<string, { Keys: Input[] }> | undefined;
    if (command !== 'BatchGetItemCommand' || left <= 0 || !requested) return next();
    if (!match(Object.values(requested).flatMap((r) => r.Keys))) return next();
    left--;
    const before = await next();
    await meanwhile();
    const after = await next();
    const responses = (out: { output: Input }) => (out.output.Responses ?? {}) as Record<string, Input[]>;
    const combined = Object.fromEntries(
      Object.keys(requested).map((table) => [
        table,
        [
          ...(responses(before)[table] ?? []).filter(early),
          ...(responses(after)[table] ?? []).filter((item) => !early(item)),
        ],
      ]),
    );
    return { ...after, output: { ...after.output, Responses: combined } };
  });
}
