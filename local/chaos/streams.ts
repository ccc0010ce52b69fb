/**
 * Chaos for the stream poller (local/pollers.ts), as Lambda's DynamoDB event-source mapping behaves with
 * the deployed settings (lib/stateless-stack.ts: bisectBatchOnError, reportBatchItemFailures, retry
 * attempts, maximum record age): a table's records spread over several shards by item key, each shard's
 * batches handled at the same time as the others' (one item's records stay in order in their shard),
 * batches cut at other places, a batch delivered again after it succeeded (at least once), a batch that
 * throws split in two and each half retried, and records past their maximum age sent to the on-failure
 * destination without being handled.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { Chaos } from './config';

export interface StreamBatchRunner {
  /** Hands a batch to the worker: the first failed record's sequence number, THREW, or undefined for success. */
  invoke(records: DynamoDBRecord[]): Promise<string | typeof THREW | undefined>;
  /** Sends the records to the on-failure destination. */
  giveUp(records: DynamoDBRecord[], attempts: number, threw: boolean, condition: string): Promise<void>;
  maxAttempts: number;
  batchSize: number;
}

/** What `invoke` answers when the worker threw (or timed out). */
export const THREW = Symbol('threw');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stable shard for an item: all its records go to one shard, in order. */
function shardOf(record: DynamoDBRecord, shards: number): number {
  const key = JSON.stringify(record.dynamodb?.Keys ?? {});
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) >>> 0;
  return h % shards;
}

/** Handles one poll's records (already filtered) the way the chaos mode says. */
export async function deliverWithChaos(chaos: Chaos, records: DynamoDBRecord[], runner: StreamBatchRunner) {
  const shards = Math.max(1, chaos.faults.streamShards);
  const groups = Array.from({ length: shards }, () => [] as DynamoDBRecord[]);
  for (const record of records) groups[shardOf(record, shards)]?.push(record);
  await Promise.all(groups.filter((g) => g.length > 0).map((group) => deliverShard(chaos, group, runner)));
}

async function deliverShard(chaos: Chaos, records: DynamoDBRecord[], runner: StreamBatchRunner) {
  let rest = records;
  while (rest.length > 0) {
    // Batches end wherever the poller's reads happened to end.
    const size = 1 + chaos.below(Math.min(runner.batchSize, rest.length), 'streamBatchSize');
    await deliverBatch(chaos, rest.slice(0, size), runner, 1);
    rest = rest.slice(size);
  }
}

async function deliverBatch(chaos: Chaos, batch: DynamoDBRecord[], runner: StreamBatchRunner, firstAttempt: number) {
  let pending = batch;
  for (let attempt = firstAttempt; pending.length > 0; attempt++) {
    const maxAgeMs = chaos.faults.streamMaxRecordAgeMs;
    const tooOld = pending.filter(
      (r) => Date.now() - (r.dynamodb?.ApproximateCreationDateTime ?? Infinity) * 1000 > maxAgeMs,
    );
    if (tooOld.length > 0) {
      await runner.giveUp(tooOld, attempt - 1, false, 'RecordAgeExceeded');
      pending = pending.filter((r) => !tooOld.includes(r));
      if (pending.length === 0) return;
    }
    const failedFrom = await runner.invoke(pending);
    if (failedFrom === undefined) {
      if (chaos.strikes('streamRedeliver')) await runner.invoke(pending);
      return;
    }
    if (failedFrom === THREW && pending.length > 1) {
      // bisectBatchOnError: each half is retried on its own, the first half first.
      const half = Math.ceil(pending.length / 2);
      await deliverBatch(chaos, pending.slice(0, half), runner, attempt + 1);
      await deliverBatch(chaos, pending.slice(half), runner, attempt + 1);
      return;
    }
    if (failedFrom !== THREW) {
      const index = pending.findIndex((r) => r.dynamodb?.SequenceNumber === failedFrom);
      pending = index >= 0 ? pending.slice(index) : [];
      if (pending.length === 0) return;
    }
    if (attempt >= runner.maxAttempts) {
      await runner.giveUp(pending, attempt, failedFrom === THREW, 'RetryAttemptsExhausted');
      return;
    }
    await sleep(100 * attempt);
  }
}
