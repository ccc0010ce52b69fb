import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
} from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import { createTableInput } from '../../local/bootstrap';
import { startQueuePoller, startStreamPoller, type Poller } from '../../local/pollers';
import { TABLES } from '../../catalog/resources';
import { sqsClient } from '../../functions/platform/queue';
import { useRuntimeAws } from '../support/aws';

useRuntimeAws();
const waitFor = async (predicate: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('DynamoDB stream poller', () => {
  const dynamo = new DynamoDBClient({});
  const tableName = `it-stream-${randomUUID().slice(0, 8)}`;
  let poller: Poller | undefined;

  beforeAll(async () => {
    await dynamo.send(new CreateTableCommand(createTableInput(TABLES.main, tableName)));
  });
  afterAll(async () => {
    await poller?.stop();
    await dynamo.send(new DeleteTableCommand({ TableName: tableName }));
  });

  it('delivers records in order, filters, and retries from the first batchItemFailure', async () => {
    const seen: string[] = [];
    let failedOnce = false;
    poller = await startStreamPoller({
      tableName,
      intervalMs: 50,
      filter: (r: DynamoDBRecord) => r.dynamodb?.NewImage?.sk?.S?.startsWith('EVENT#') ?? false,
      handler: async (event) => {
        for (const record of event.Records) {
          const sk = record.dynamodb?.NewImage?.sk?.S ?? '';
          seen.push(sk);
          if (sk === 'EVENT#2' && !failedOnce) {
            failedOnce = true;
            return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
          }
        }
        return { batchItemFailures: [] };
      },
    });
    for (const sk of ['EVENT#1', 'OTHER#x', 'EVENT#2', 'EVENT#3']) {
      await dynamo.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: 'T' }, sk: { S: sk } } }));
    }
    await waitFor(() => seen.includes('EVENT#3'));
    expect(seen).toEqual(['EVENT#1', 'EVENT#2', 'EVENT#2', 'EVENT#3']);
  });
});

describe('SQS poller', () => {
  const sqs = sqsClient();
  let poller: Poller | undefined;
  afterAll(async () => poller?.stop());

  it('deletes what succeeded, redelivers batchItemFailures, and redrives poison to the DLQ', async () => {
    const suffix = randomUUID().slice(0, 8);
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `it-dlq-${suffix}` }));
    const dlqArn = (
      await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
    ).Attributes?.QueueArn;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: `it-main-${suffix}`,
        Attributes: {
          VisibilityTimeout: '1',
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: '2' }),
        },
      }),
    );
    const queueUrl = queue.QueueUrl ?? '';
    const received: Record<string, number> = {};
    poller = startQueuePoller({
      queueUrl,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:it-main',
      concurrency: 1,
      handler: async (event) => {
        const failures = [];
        for (const record of event.Records) {
          received[record.body] = (received[record.body] ?? 0) + 1;
          const flaky = record.body === 'flaky' && received.flaky === 1;
          if (record.body === 'poison' || flaky) failures.push({ itemIdentifier: record.messageId });
        }
        return { batchItemFailures: failures };
      },
    });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: ['ok-1', 'flaky', 'poison', 'ok-2'].map((body, i) => ({ Id: String(i), MessageBody: body })),
      }),
    );
    await waitFor(() => (received.flaky ?? 0) >= 2 && (received.poison ?? 0) >= 2);
    let dead: string[] = [];
    for (let i = 0; i < 20 && !dead.includes('poison'); i++) {
      const out = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
      );
      dead = dead.concat((out.Messages ?? []).map((m) => m.Body ?? ''));
    }
    expect(dead).toEqual(['poison']);
    expect(received['ok-1']).toBe(1);
    expect(received['ok-2']).toBe(1);
    expect(received.flaky).toBe(2);
    expect(received.poison).toBe(2);
  }, 60_000);
});
