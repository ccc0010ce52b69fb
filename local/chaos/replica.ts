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
import { DynamoDBStreamsClient, type _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { TABLES, type TableName, type TableSpec } from '../../catalog/resources';
import { createTableInput } from '../bootstrap';
import { openStream } from '../stream-shards';
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
  const followers: { stop(): Promise<void> }[] = [];

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
    // Records from before the copy below are in it already (replayed, they would move items back in time):
    // the replica follows each shard from its end as it stands now.
    const shards = await openStream(streams, streamArn, { fromEnd: true });
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
    followers.push(
      shards.follow({
        limit: 1000,
        minIdleMs: 25,
        maxIdleMs: 25,
        discoverEvery: 20,
        onRecords: (_shard, records) => records.forEach(schedule),
        onError: (error) => console.error('[chaos] replica stream read failed', (error as Error).message),
      }),
    );
  }

  return {
    replicaOf: (table) => byTable.get(table),
    stop: async () => {
      await Promise.all(followers.map((f) => f.stop()));
      dynamo.destroy();
      streams.destroy();
    },
  };
}
