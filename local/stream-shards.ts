/**
 * Reading a DynamoDB stream shard by shard, as Lambda's event-source mapping does; the stream pollers
 * (pollers.ts) and the chaos mode's lagging replica (chaos/replica.ts) both follow their tables' streams
 * with it. Shards are found as they open, each has one iterator, a vanished shard is dropped, and a
 * trimmed or expired iterator is taken again from just after the last record read. It never asks for a
 * LATEST iterator, which DynamoDB Local answers with TrimmedDataAccessException on every later read: to
 * skip what a stream already holds, each shard is read to its end first.
 */
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FollowOptions {
  /** Most records one read returns (GetRecords' Limit). */
  limit: number;
  /** After a round of reads with no record, the next waits this long, doubling up to `maxIdleMs`. */
  minIdleMs: number;
  maxIdleMs: number;
  /** New shards are looked for every this many rounds, and at once after a shard closes. */
  discoverEvery: number;
  /** A shard's records, in their order; that shard is read again only after this settles. */
  onRecords(shardId: string, records: StreamRecord[]): Promise<void> | void;
  /** A round that failed (it is tried again after half a second). */
  onError(error: unknown): void;
}

export interface StreamShards {
  /** Reads the shards from where they stand until stopped. */
  follow(options: FollowOptions): { stop(): Promise<void> };
}

/**
 * The stream's shards, each positioned at its oldest record, or with `fromEnd` after its newest (what
 * was written before this returns is skipped; what is written after is not missed).
 */
export async function openStream(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  { fromEnd = false }: { fromEnd?: boolean } = {},
): Promise<StreamShards> {
  const iterators = new Map<string, string | undefined>();
  let shardClosed = false;
  /** Per shard, the last record read: a stale iterator is taken again from just after it. */
  const lastRead = new Map<string, string>();
  const freshIterator = async (shardId: string) => {
    const after = lastRead.get(shardId);
    const it = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return it.ShardIterator;
  };
  const discover = async () => {
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards;
    for (const shard of shards ?? []) {
      if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
      iterators.set(shard.ShardId, await freshIterator(shard.ShardId));
    }
  };
  /** One read of a shard: its records, or none when its iterator was stale (replaced) or it vanished. */
  const read = async (shardId: string, iterator: string, limit: number): Promise<StreamRecord[]> => {
    let out;
    try {
      out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }));
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ResourceNotFoundException') iterators.set(shardId, undefined);
      else if (name === 'TrimmedDataAccessException' || name === 'ExpiredIteratorException')
        iterators.set(shardId, await freshIterator(shardId));
      else throw error;
      return [];
    }
    iterators.set(shardId, out.NextShardIterator);
    // A shard without a next iterator has closed: its children are to be found at once.
    if (!out.NextShardIterator) shardClosed = true;
    const last = out.Records?.at(-1)?.dynamodb?.SequenceNumber;
    if (last) lastRead.set(shardId, last);
    return out.Records ?? [];
  };

  await discover();
  if (fromEnd) {
    for (const [shardId, first] of iterators) {
      for (let iterator = first; iterator; iterator = iterators.get(shardId)) {
        if ((await read(shardId, iterator, 1000)).length === 0) break;
      }
      iterators.set(shardId, await freshIterator(shardId));
    }
  }

  return {
    follow(options) {
      let running = true;
      const loop = (async () => {
        let idleMs = options.minIdleMs;
        for (let round = 1; running; round++) {
          try {
            if (shardClosed || round % options.discoverEvery === 0) {
              shardClosed = false;
              await discover();
            }
            let idle = true;
            for (const [shardId, iterator] of iterators) {
              if (!iterator) continue;
              const records = await read(shardId, iterator, options.limit);
              if (records.length === 0) continue;
              idle = false;
              await options.onRecords(shardId, records);
            }
            if (idle) {
              await sleep(idleMs);
              idleMs = Math.min(idleMs * 2, options.maxIdleMs);
            } else idleMs = options.minIdleMs;
          } catch (error) {
            if (running) options.onError(error);
            await sleep(500);
          }
        }
      })();
      return {
        stop: async () => {
          running = false;
          await loop;
        },
      };
    },
  };
}
