/**
 * The lagging replica: what index queries and eventually consistent reads see under chaos.
 *
 * DynamoDB Local updates indexes in the same write and answers every read from the one copy, so nothing
 * locally ever reads stale data. In AWS, an eventually consistent read may hit a replica that has not yet
 * applied the latest writes, and a global secondary index is updated asynchronously; each item's changes
 * still arrive in order. The replica plays that: a second table per streamed table, with the same keys
 * and indexes, to which every change of the table's stream is applied after a random delay of up to
 * `replicaLagMs`, one item's changes strictly in their stream order (each is applied no earlier than the
 * one before it). The SDK middleware (sdk.ts) sends index queries and reads without ConsistentRead there.
 *
 * Why a shadow table rather than filtering results against a change log: DynamoDB Local itself then does
 * the querying (key conditions, filters, Limit, pagination, projections) over the lagging state, so the
 * replica is right by construction, and a read costs what it costs on the table. Tables without a stream
 * (short-lived counters and locks, always read consistently) have no replica.
 */
import {
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { TABLES, type TableName, type TableSpec } from '../../catalog/resources';
import { createTableInput } from '../bootstrap';
import type { Chaos } from './config';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Replicas {
  /** The replica of a table, by the table's name. */
  replicaOf(table: string): string | undefined;
  stop(): Promise<void>;
}

/**
 * The Streams client reads an empty map attribute (`{"M": {}}`) back as `{}`, which DynamoDB refuses
 * in a write: put the empty maps back, at any depth.
 */
function restoreEmptyMaps(item: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const fix = (value: AttributeValue): AttributeValue => {
    if (Object.keys(value).length === 0) return { M: {} };
    if (value.M) return { M: restoreEmptyMaps(value.M) };
    if (value.L) return { L: value.L.map(fix) };
    return value;
  };
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fix(v)]));
}

/** Creates a replica for every streamed table and starts applying the stream to it, lagging. */
export async function startReplicas(chaos: Chaos, tables: Record<TableName, string>): Promise<Replicas> {
  const dynamo = new DynamoDBClient({});
  const streams = new DynamoDBStreamsClient({});
  const byTable = new Map<string, string>();
  const loops: Promise<void>[] = [];
  let running = true;

  for (const key of Object.keys(TABLES) as TableName[]) {
    const spec: TableSpec = TABLES[key];
    if (!spec.stream) continue;
    const table = tables[key];
    const replica = `${table}-lagging-replica`;
    const streamArn = (await dynamo.send(new DescribeTableCommand({ TableName: table }))).Table?.LatestStreamArn;
    if (!streamArn) continue;
    // Fresh at every start; a persistent DATA_DIR's items are copied after the stream position is taken.
    await dynamo.send(new DeleteTableCommand({ TableName: replica })).catch(() => undefined);
    await dynamo.send(new CreateTableCommand({ ...createTableInput(spec, replica), StreamSpecification: undefined }));
    const iterators = new Map<string, string | undefined>();
    /** Per shard, the last record applied: a stale iterator is replaced from just after it. */
    const lastApplied = new Map<string, string>();
    const freshIterator = async (shardId: string) => {
      const after = lastApplied.get(shardId);
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
      const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription
        ?.Shards;
      for (const shard of shards ?? []) {
        if (!shard.ShardId || iterators.has(shard.ShardId)) continue;
        iterators.set(shard.ShardId, await freshIterator(shard.ShardId));
      }
    };
    await discover();
    // Records from before the copy below are in it already (replayed, they would move items back in time):
    // each shard is read to its end first, and the replica follows from there.
    for (const [shardId, first] of iterators) {
      for (let iterator = first; iterator;) {
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const last = out.Records?.at(-1)?.dynamodb?.SequenceNumber;
        if (!last) break;
        lastApplied.set(shardId, last);
        iterator = out.NextShardIterator;
      }
      iterators.set(shardId, await freshIterator(shardId));
    }
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await dynamo.send(
        new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }),
      );
      for (const item of page.Items ?? []) await dynamo.send(new PutItemCommand({ TableName: replica, Item: item }));
      start = page.LastEvaluatedKey;
    } while (start);
    byTable.set(table, replica);

    /** Per item: when its last change is applied, and the chain that applies its changes in order. */
    const items = new Map<string, { at: number; chain: Promise<void> }>();
    const apply = async (record: StreamRecord) => {
      const change = record.dynamodb;
      if (!change?.Keys) return;
      if (record.eventName === 'REMOVE')
        await dynamo.send(new DeleteItemCommand({ TableName: replica, Key: change.Keys }));
      else if (change.NewImage)
        await dynamo.send(new PutItemCommand({ TableName: replica, Item: restoreEmptyMaps(change.NewImage) }));
    };
    const schedule = (record: StreamRecord) => {
      const id = JSON.stringify(record.dynamodb?.Keys ?? {});
      const prior = items.get(id);
      const at = Math.max(prior?.at ?? 0, Date.now() + chaos.upTo('replicaLagMs', 'replicaLag'));
      const chain = (prior?.chain ?? Promise.resolve())
        .then(() => sleep(at - Date.now()))
        .then(() => apply(record))
        .catch((error: unknown) => console.error('[chaos] replica apply failed', (error as Error).message));
      const entry = { at, chain };
      items.set(id, entry);
      void chain.then(() => {
        if (items.get(id) === entry) items.delete(id);
      });
    };
    loops.push(
      (async () => {
        let round = 0;
        while (running) {
          try {
            if (++round % 20 === 0) await discover();
            let idle = true;
            for (const [shardId, iterator] of iterators) {
              if (!iterator) continue;
              let out;
              try {
                out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
              } catch (error) {
                // A stale iterator (trimmed or expired) is replaced, as the pollers do; a vanished shard is dropped.
                const name = (error as Error).name;
                if (name === 'ResourceNotFoundException') iterators.set(shardId, undefined);
                else if (name === 'TrimmedDataAccessException' || name === 'ExpiredIteratorException')
                  iterators.set(shardId, await freshIterator(shardId));
                else throw error;
                continue;
              }
              iterators.set(shardId, out.NextShardIterator);
              for (const record of out.Records ?? []) {
                if (record.dynamodb?.SequenceNumber) lastApplied.set(shardId, record.dynamodb.SequenceNumber);
                schedule(record);
              }
              if (out.Records?.length) idle = false;
            }
            if (idle) await sleep(25);
          } catch (error) {
            if (running) console.error('[chaos] replica stream read failed', (error as Error).message);
            await sleep(200);
          }
        }
      })(),
    );
  }

  return {
    replicaOf: (table) => byTable.get(table),
    stop: async () => {
      running = false;
      await Promise.all(loops);
      dynamo.destroy();
      streams.destroy();
    },
  };
}
