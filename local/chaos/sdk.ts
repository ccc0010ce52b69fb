/**
 * Chaos in the AWS SDK clients the functions use (added through functions/platform/db.ts's
 * `sdkClientHooks`): DynamoDB's faults, the lagging replica's routing, and the silence of a timed-out
 * invocation's calls.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SharedClient } from '../../functions/platform/client-hooks';
import type { Store } from '../invocations';
import type { Chaos } from './config';
import { isFrozen, never } from './invocations';

type Args = { input: Record<string, unknown>; request?: { body?: unknown } };
type Next = (args: Args) => Promise<{ output: Record<string, unknown> }>;
type Context = { commandName?: string };
interface AnyStack {
  add(
    middleware: (next: Next, context: Context) => (args: Args) => Promise<{ output: Record<string, unknown> }>,
    options: { step: 'initialize' | 'finalizeRequest'; name: string; priority?: 'high' | 'low' },
  ): void;
}

/** Where a table's eventually consistent reads go (its lagging replica); undefined for none. */
export type ReplicaOf = (table: string) => string | undefined;

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/** An error of the kind the SDK's retry strategy treats as a lost connection, and retries. */
const lostResponse = () =>
  Object.assign(new Error('chaos: the connection closed before the response arrived'), {
    name: 'TimeoutError',
    code: 'ECONNRESET',
    $metadata: {},
  });

const serviceError = (name: string, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode: 400 }, ...extra });

/** The middlewares, given the running invocation's store and the replica routing. */
export function chaosClientHook(
  chaos: Chaos,
  currentStore: () => Store | undefined,
  replicaOf: ReplicaOf,
): (made: SharedClient) => void {
  return ({ client }) => {
    const stack = client.middlewareStack as unknown as AnyStack;
    // A timed-out invocation: nothing it asks returns, whether or not the call reached the service.
    stack.add(
      (next) => async (args) => {
        const store = currentStore();
        if (isFrozen(store)) return never();
        try {
          const result = await next(args);
          if (isFrozen(store)) return never();
          return result;
        } catch (error) {
          if (isFrozen(store)) return never();
          throw error;
        }
      },
      { step: 'initialize', name: 'chaosTimeout', priority: 'high' },
    );
    if (!(client instanceof DynamoDBClient)) return;
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName);
        if (command === 'TransactWriteItemsCommand') {
          const items = (args.input.TransactItems as unknown[] | undefined) ?? [];
          const code = chaos.strikes('txConflict')
            ? 'TransactionConflict'
            : chaos.strikes('txThrottle')
              ? 'ThrottlingError'
              : undefined;
          if (code) {
            const at = chaos.below(items.length, 'txReasonAt');
            const reasons = items.map((_, i) =>
              i === at
                ? {
                    Code: code,
                    Message:
                      code === 'ThrottlingError'
                        ? 'Throughput exceeds the current capacity.'
                        : 'Transaction is ongoing for the item',
                  }
                : { Code: 'None' },
            );
            throw serviceError(
              'TransactionCanceledException',
              `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
              { CancellationReasons: reasons },
            );
          }
        }
        if (command === 'BatchGetItemCommand' || command === 'BatchWriteItemCommand')
          return leaveUnprocessed(chaos, command, args, next);
        return next(routeToReplica(command, args, replicaOf));
      },
      { step: 'initialize', name: 'chaosDynamoFaults', priority: 'low' },
    );
    // Inside the SDK's retry loop: what it retries by itself (throttling, lost connections).
    const committed = new Map<string, { output: Record<string, unknown> }>();
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName);
        if (chaos.strikes('throttle'))
          throw serviceError(
            'ProvisionedThroughputExceededException',
            'chaos: throughput exceeds the current capacity',
            {
              $retryable: { throttling: true },
            },
          );
        // DynamoDB answers a repeated TransactWriteItems with the same token as the first (for 10 minutes).
        const token = command === 'TransactWriteItemsCommand' ? clientRequestToken(args) : undefined;
        const done = token && committed.get(token);
        if (done) return done;
        const result = await next(args);
        // Only a first attempt's response is lost: its retry, which the SDK makes at once, gets through.
        if (WRITES.has(command) && isFirstAttempt(args) && chaos.strikes('lostResponse')) {
          if (token) {
            committed.set(token, result);
            setTimeout(() => committed.delete(token), 600_000).unref();
          }
          throw lostResponse();
        }
        return result;
      },
      { step: 'finalizeRequest', name: 'chaosRetriedFaults', priority: 'low' },
    );
  };
}

/** The SDK numbers its attempts in a header (`amz-sdk-request: attempt=1; max=3`). */
function isFirstAttempt(args: Args): boolean {
  const headers = (args.request as { headers?: Record<string, string> } | undefined)?.headers ?? {};
  return !/attempt=([2-9]|\d\d)/.test(headers['amz-sdk-request'] ?? '');
}

function clientRequestToken(args: Args): string | undefined {
  const body = args.request?.body;
  if (typeof body !== 'string') return undefined;
  try {
    return (JSON.parse(body) as { ClientRequestToken?: string }).ClientRequestToken;
  } catch {
    return undefined;
  }
}

/**
 * Index queries, and reads without ConsistentRead, go to the table's lagging replica (replica.ts).
 * TransactGetItems and consistent reads stay on the table.
 */
function routeToReplica(command: string, args: Args, replicaOf: ReplicaOf): Args {
  const input = args.input;
  const table = input.TableName as string | undefined;
  const replica = table && replicaOf(table);
  if (!replica) return args;
  const eventual =
    (command === 'QueryCommand' && (input.IndexName !== undefined || input.ConsistentRead !== true)) ||
    ((command === 'GetItemCommand' || command === 'ScanCommand') && input.ConsistentRead !== true);
  return eventual ? { ...args, input: { ...input, TableName: replica } } : args;
}

type Requests = Record<string, { Keys?: unknown[]; ConsistentRead?: boolean } | unknown[]>;

/**
 * A batch call that leaves a random part of its keys or writes unprocessed (never all: that is a
 * throttling error instead), as DynamoDB does under load.
 */
async function leaveUnprocessed(chaos: Chaos, command: string, args: Args, next: Next) {
  const requests = args.input.RequestItems as Requests;
  const isGet = command === 'BatchGetItemCommand';
  const entries = (r: Requests[string]) => (isGet ? ((r as { Keys?: unknown[] }).Keys ?? []) : (r as unknown[]));
  const total = Object.values(requests).reduce((n, r) => n + entries(r).length, 0);
  const sent: Requests = {};
  const left: Requests = {};
  const withhold = total > 1 && chaos.strikes('unprocessed');
  let keep = withhold ? 1 + chaos.below(total - 1, 'unprocessedKeep') : total;
  for (const [table, request] of Object.entries(requests)) {
    const all = entries(request);
    const now = all.slice(0, keep);
    const later = all.slice(now.length);
    keep -= now.length;
    if (now.length) sent[table] = isGet ? { ...(request as object), Keys: now } : now;
    if (later.length) left[table] = isGet ? { ...(request as object), Keys: later } : later;
  }
  const result = await next({ ...args, input: { ...args.input, RequestItems: sent } });
  if (Object.keys(left).length === 0) return result;
  const field = isGet ? 'UnprocessedKeys' : 'UnprocessedItems';
  const already = (result.output[field] as Requests | undefined) ?? {};
  for (const [table, request] of Object.entries(already)) {
    const prior = left[table];
    left[table] = isGet
      ? { ...(request as object), Keys: [...entries(request), ...(prior ? entries(prior) : [])] }
      : [...(request as unknown[]), ...((prior as unknown[] | undefined) ?? [])];
  }
  return { ...result, output: { ...result.output, [field]: left } };
}
