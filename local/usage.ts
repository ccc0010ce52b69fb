import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { onClientMade } from '../functions/platform/client-hooks';

/**
 * What one request (or worker invocation) asked of DynamoDB: round trips by command, how many of them it
 * waited for one after the other (`sequential`: a call started while another is in flight does not
 * count), the capacity units DynamoDB reported, split into reads and writes, with the part of the writes
 * that went to indexes; and its SQS requests.
 */
export interface DbUsage {
  calls: number;
  sequential: number;
  inFlight: number;
  byCommand: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  sqsRequests: number;
  /** Time the bench spent pricing transactions inside this invocation, to leave out of its duration. */
  accountingMs: number;
}

export const newDbUsage = (): DbUsage => ({
  calls: 0,
  sequential: 0,
  inFlight: 0,
  byCommand: {},
  readUnits: 0,
  writeUnits: 0,
  indexWriteUnits: 0,
  sqsRequests: 0,
  accountingMs: 0,
});

/** A transaction's capacity as DynamoDB bills it (DynamoDB Local reports one item per table instead). */
export interface TransactionCapacity {
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  accountingMs: number;
}
/**
 * Called before a call is sent; for a transaction, returns what prices it once it has committed (given
 * its output, or undefined when it failed, to keep DynamoDB's own figure). Set by the bench only.
 */
export type TransactionPricer = (
  command: string,
  input: unknown,
) => Promise<((output: unknown) => Promise<TransactionCapacity | undefined>) | undefined>;

/**
 * Per-invocation accounting, for `npm run bench`: the local runtime gives every invocation its own
 * `DbUsage` while something observes invocations (local/invocations.ts) and `countUsageIn` adds middleware to the functions' DynamoDB and SQS
 * clients that charges each call to the running invocation, so a request is never charged for what
 * background workers do meanwhile. `captureCapacity` asks DynamoDB for the consumed capacity of each
 * call, and `priceTransaction` (the bench's) replaces that figure for transactions, which DynamoDB Local
 * under-reports.
 */
export const dbStats: { captureCapacity: boolean; priceTransaction?: TransactionPricer } = { captureCapacity: false };

type Capacity = {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  GlobalSecondaryIndexes?: Record<string, Capacity>;
};
const READS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);

function addCapacity(usage: DbUsage, command: string, consumed: Capacity | Capacity[] | undefined): void {
  for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
    const total = c.CapacityUnits ?? 0;
    const read = c.ReadCapacityUnits ?? (c.WriteCapacityUnits === undefined && READS.has(command) ? total : 0);
    usage.readUnits += read;
    usage.writeUnits += total - read;
    if (!READS.has(command))
      for (const index of Object.values(c.GlobalSecondaryIndexes ?? {}))
        usage.indexWriteUnits += index.CapacityUnits ?? 0;
  }
}

function countDynamoDb(client: DynamoDBClient, usageNow: () => DbUsage | undefined): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const usage = usageNow();
      if (!usage) return next(args);
      const name = String(context.commandName ?? 'unknown');
      usage.calls += 1;
      if (usage.inFlight++ === 0) usage.sequential += 1;
      usage.byCommand[name] = (usage.byCommand[name] ?? 0) + 1;
      if (dbStats.captureCapacity) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      try {
        const price = dbStats.captureCapacity ? await dbStats.priceTransaction?.(name, args.input) : undefined;
        const result = await next(args);
        const priced = await price?.(result.output);
        if (priced) {
          usage.readUnits += priced.readUnits;
          usage.writeUnits += priced.writeUnits;
          usage.indexWriteUnits += priced.indexWriteUnits;
          usage.accountingMs += priced.accountingMs;
        } else
          addCapacity(usage, name, (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
        return result;
      } catch (error) {
        // A failed condition still consumed its capacity, and DynamoDB reports it with the error.
        addCapacity(usage, name, (error as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
        throw error;
      } finally {
        usage.inFlight -= 1;
      }
    },
    { step: 'initialize', name: 'countRoundTrips' },
  );
}

function countSqs(client: SQSClient, usageNow: () => DbUsage | undefined): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const usage = usageNow();
      if (usage) usage.sqsRequests += 1;
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
}

let counting = false;

/** Charges the functions' DynamoDB and SQS calls to the usage `usageNow` finds (once per process). */
export function countUsageIn(usageNow: () => DbUsage | undefined): void {
  if (counting) return;
  counting = true;
  onClientMade((made) => {
    if (made.service === 'dynamodb') countDynamoDb(made.client, usageNow);
    else if (made.service === 'sqs') countSqs(made.client, usageNow);
  });
}
