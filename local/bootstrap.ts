import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateBucketCommand, PutBucketLifecycleConfigurationCommand, S3Client } from '@aws-sdk/client-s3';
import {
  BUCKETS,
  TABLES,
  queuesInCreationOrder,
  type BucketKey,
  type QueueKey,
  type TableName,
  type TableSpec,
} from '../catalog/resources';

/** The CreateTable input for a spec: the local twin of the CDK TableV2 built from the same spec. */
export function createTableInput(spec: TableSpec, name: string): CreateTableCommandInput {
  const attributes = new Set([spec.partitionKey, ...(spec.sortKey ? [spec.sortKey] : [])]);
  for (const index of spec.indexes) attributes.add(index.partitionKey).add(index.sortKey);
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((a): AttributeDefinition => ({ AttributeName: a, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: spec.partitionKey, KeyType: 'HASH' },
      ...(spec.sortKey ? [{ AttributeName: spec.sortKey, KeyType: 'RANGE' as const }] : []),
    ],
    GlobalSecondaryIndexes: spec.indexes.length
      ? spec.indexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
            { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
          ],
          Projection: index.include
            ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.include] }
            : { ProjectionType: 'ALL' as const },
        }))
      : undefined,
    StreamSpecification: spec.stream ? { StreamEnabled: true, StreamViewType: spec.stream } : undefined,
  };
}

/**
 * Creates every table that does not exist yet (a persistent DATA_DIR keeps them across restarts), and adds
 * to an existing one the indexes a newer version declares, as a deployment of the stack would. With
 * `ttl: false` (the chaos mode) expiry is never switched on, so expired items stay, as AWS may keep them
 * for days.
 */
export async function ensureTables(
  client: DynamoDBClient,
  prefix: string,
  { ttl = true }: { ttl?: boolean } = {},
): Promise<Record<TableName, string>> {
  const names = {} as Record<TableName, string>;
  for (const [key, spec] of Object.entries(TABLES) as [TableName, TableSpec][]) {
    const name = `${prefix}${spec.id}`;
    names[key] = name;
    const exists = await client.send(new DescribeTableCommand({ TableName: name })).then(
      () => true,
      (error: Error) => {
        if (error.name === 'ResourceNotFoundException') return false;
        throw error;
      },
    );
    if (exists) {
      await addMissingIndexes(client, spec, name);
      continue;
    }
    await client.send(new CreateTableCommand(createTableInput(spec, name)));
    if (ttl)
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { Enabled: true, AttributeName: spec.ttlAttribute },
        }),
      );
  }
  return names;
}

async function addMissingIndexes(client: DynamoDBClient, spec: TableSpec, name: string): Promise<void> {
  const table = await client.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((table.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(spec, name);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    const keys = new Set(index.KeySchema?.map((k) => k.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: wanted.AttributeDefinitions?.filter((a) => keys.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    // One index is built at a time, and lists need it built before the runtime serves them.
    for (let waited = 0; waited < 120; waited++) {
      const now = await client.send(new DescribeTableCommand({ TableName: name }));
      const built = now.Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === index.IndexName);
      if (built?.IndexStatus === 'ACTIVE') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export interface QueueInfo {
  url: string;
  arn: string;
}

/** Creates the queues, dead-letter targets first, with the same redrive policy as the CDK stack. */
export async function ensureQueues(client: SQSClient, prefix: string): Promise<Record<QueueKey, QueueInfo>> {
  const out = {} as Record<QueueKey, QueueInfo>;
  for (const [key, spec] of queuesInCreationOrder()) {
    const attributes: Record<string, string> = {
      VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
      MessageRetentionPeriod: String(spec.retentionDays * 86400),
    };
    if (spec.deliveryDelay)
      attributes.DelaySeconds = process.env[spec.deliveryDelay.localEnv] || String(spec.deliveryDelay.seconds);
    if (spec.deadLetter) {
      const target = out[spec.deadLetter.queue];
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: target.arn,
        maxReceiveCount: String(spec.deadLetter.maxReceiveCount),
      });
    }
    const created = await client.send(
      new CreateQueueCommand({ QueueName: `${prefix}${spec.id}`, Attributes: attributes }),
    );
    const url = created.QueueUrl ?? '';
    const attrs = await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
    out[key] = { url, arn: attrs.Attributes?.QueueArn ?? '' };
  }
  return out;
}

/**
 * Creates each bucket of catalog/resources.ts in the S3 emulator (private: the emulator serves only
 * signed requests' paths, and presigned URLs are the only way out), with the same expiry rule as in AWS.
 */
export async function ensureBuckets(client: S3Client, prefix: string): Promise<Record<BucketKey, string>> {
  const out = {} as Record<BucketKey, string>;
  for (const [key, spec] of Object.entries(BUCKETS) as [BucketKey, (typeof BUCKETS)[BucketKey]][]) {
    const name = `${prefix}${spec.id}`.toLowerCase();
    await client.send(new CreateBucketCommand({ Bucket: name })).catch((error: Error) => {
      if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error;
    });
    await client.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: name,
        LifecycleConfiguration: {
          Rules: [
            { ID: 'retention', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: spec.retentionDays } },
          ],
        },
      }),
    );
    out[key] = name;
  }
  return out;
}
