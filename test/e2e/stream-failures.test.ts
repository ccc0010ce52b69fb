import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { eventPut, newEvent } from '../../functions/events/store';
import { sqsClient } from '../../functions/platform/queue';
import { createTableInput } from '../../local/bootstrap';
import { startStreamPoller, type Poller } from '../../local/pollers';
import { TABLES } from '../../catalog/resources';
import { readFailedRecords, type StreamFailureRecord } from '../../local/stream-failures';
import { authOf, call, createTenant, DELIVERED_WITHIN_MS, eventually } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';

/**
 * Stream batches a worker gives up on are never dropped: the local stream poller sends Lambda's
 * on-failure record (shard and sequence range) to the StreamFailures queue, and `npm run ops` lists
 * them and replays them, reading the records back from the stream and handing them to the worker.
 */
useRuntimeAws();
const queueUrl =
  (JSON.parse(readFileSync(testRuntime().opsFile, 'utf8')) as { queues: Record<string, { url: string }> }).queues
    .streamFailures?.url ?? '';

interface OpsLine {
  message_id: string;
  function: string | null;
  stream_arn: string;
  worker?: string;
  records?: number;
  outcome?: string;
  error?: string;
}

/** Runs `npm run ops -- …` against the runtime; a non-zero exit still yields its output. */
async function ops(...args: string[]): Promise<{ code: number; lines: OpsLine[]; stderr: string }> {
  const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/ops.ts', ...args], {
    env: { ...process.env, LOCAL_RUNTIME_FILE: testRuntime().opsFile },
  });
  const { stdout, stderr, code } = await run.then(
    (out) => ({ ...out, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  // Only the command's own lines: a replayed worker may log on stdout too.
  const lines = stdout.split('\n').flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as OpsLine;
      return parsed && typeof parsed === 'object' && 'message_id' in parsed ? [parsed] : [];
    } catch {
      return [];
    }
  });
  return { code, lines, stderr };
}

/** The failure records now in the queue (a look: they stay). */
async function queuedFailures(): Promise<{ id: string; record: StreamFailureRecord }[]> {
  const out = await sqsClient().send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 0,
      WaitTimeSeconds: 1,
    }),
  );
  return (out.Messages ?? []).map((m) => ({
    id: m.MessageId ?? '',
    record: JSON.parse(m.Body ?? '{}') as StreamFailureRecord,
  }));
}

async function removeFromQueue(messageId: string) {
  for (let i = 0; i < 10; i++) {
    const out = await sqsClient().send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const hit = out.Messages?.find((m) => m.MessageId === messageId);
    if (hit)
      return void (await sqsClient().send(
        new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: hit.ReceiptHandle }),
      ));
  }
}

it('the runtime records a batch its worker keeps failing, and a replay that fails again keeps it', async () => {
  expect(queueUrl).toContain('StreamFailures');
  // An inbound message the analysis reaction can never store a verdict for: its key would be too long.
  const tenantId = randomUUID();
  const pk = `TENANT#${tenantId}`;
  await new DynamoDBClient({}).send(
    new PutItemCommand({
      TableName: `local-${TABLES.main.id}`,
      Item: marshall({
        pk,
        sk: 'CONV#c1#MSG#m1',
        tenant_id: tenantId,
        conversation_id: 'c'.repeat(1100),
        id: 'msg_1',
        direction: 'inbound',
        text: 'hello there',
      }),
    }),
  );
  const streams = new DynamoDBStreamsClient({});
  const ours = async () => {
    for (const { id, record } of await queuedFailures()) {
      const records = await readFailedRecords(streams, record.DDBStreamBatchInfo).catch(() => []);
      if (records.some((r) => r.dynamodb?.NewImage?.pk?.S === pk)) return { id, record };
    }
    return undefined;
  };
  const failure = await eventually(ours, (found) => found !== undefined, 30_000);
  expect(failure?.record).toMatchObject({
    requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 11 },
    responseContext: { statusCode: 200 },
  });

  const listed = await ops('stream-failures');
  expect(listed.lines.find((l) => l.message_id === failure?.id)).toMatchObject({
    stream_arn: failure?.record.DDBStreamBatchInfo.streamArn,
  });

  const replay = await ops('replay-stream-failures', '--worker', 'stream-reactions');
  expect(replay.code).toBe(1);
  expect(replay.lines.find((l) => l.message_id === failure?.id)).toMatchObject({
    worker: 'stream-reactions',
    outcome: 'failed',
    error: expect.stringMatching(/failed/),
  });
  expect((await queuedFailures()).map((f) => f.id)).toContain(failure?.id);
  await removeFromQueue(failure?.id ?? '');
  streams.destroy();
}, 90_000);

describe('a failed dispatcher batch', () => {
  const dynamo = new DynamoDBClient({});
  const tableName = `e2e-stream-failures-${randomUUID().slice(0, 8)}`;
  let poller: Poller | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  beforeAll(async () => {
    await dynamo.send(new CreateTableCommand(createTableInput(TABLES.main, tableName)));
  });
  afterAll(async () => {
    await poller?.stop();
    await receiver?.close();
    await dynamo.send(new DeleteTableCommand({ TableName: tableName }));
  });

  it('is replayed by npm run ops through the real dispatcher, and its event reaches the webhook', async () => {
    const tenant = await createTenant();
    // The replayed event is hand-made, so not one the contract describes.
    receiver = await startReceiver(undefined, { contract: false });
    const endpoint = await call('POST', '/webhooks', {
      ...authOf(tenant),
      body: { url: receiver.url(), events: ['booking.*'] },
    });
    expect(endpoint.status).toBe(201);
    // A dispatcher that is down: every attempt fails, so the poller gives the batch up.
    poller = await startStreamPoller({
      tableName,
      intervalMs: 50,
      maxAttempts: 2,
      functionName: 'outbox-dispatcher',
      onFailureQueueUrl: queueUrl,
      handler: async () => {
        throw new Error('dispatcher unavailable');
      },
    });
    const event = newEvent(tenant.tenantId, 'booking.created', { booking: { id: 'bkg_replayed' } }, new Date());
    await dynamo.send(new PutItemCommand({ TableName: tableName, Item: marshall(eventPut(event).Put.Item) }));

    const listed = await eventually(
      () => ops('stream-failures'),
      (out) => out.lines.some((l) => l.stream_arn.includes(tableName)),
      30_000,
    );
    const failure = listed.lines.find((l) => l.stream_arn.includes(tableName));
    expect(failure).toMatchObject({ function: 'outbox-dispatcher' });
    expect(receiver.received).toHaveLength(0);

    const replay = await ops('replay-stream-failures', '--worker', 'outbox-dispatcher');
    expect(replay.lines.find((l) => l.message_id === failure?.message_id)).toMatchObject({
      worker: 'outbox-dispatcher',
      records: 1,
      outcome: 'replayed',
    });
    await eventually(
      async () => receiver?.received.length ?? 0,
      (n) => n >= 1,
      DELIVERED_WITHIN_MS,
    );
    expect(receiver.received[0]?.headers['webhook-id']).toBe(event.id);
    expect((await ops('stream-failures')).lines.map((l) => l.message_id)).not.toContain(failure?.message_id);
  }, 150_000);
});
