import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, type _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { sqsClient } from '../functions/platform/queue';
import { QUEUES } from '../catalog/resources';
import { localFunctionArn, type StreamFailureRecord } from './stream-failures';
import type { Chaos } from './chaos/config';
import { deliverWithChaos, THREW } from './chaos/streams';
import { openStream } from './stream-shards';
import type {
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';

/**
 * Local stand-ins for Lambda's event-source mappings: they call the same handler modules with the same
 * event shapes, and honour partial batch responses (batchItemFailures) the way Lambda does.
 */
export interface Poller {
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string, error?: unknown) =>
  console.error(`[poller] ${message}`, error instanceof Error ? error.message : (error ?? ''));

export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

export interface StreamPollerOptions {
  tableName: string;
  handler: StreamHandler;
  /** Like an event-source filter: records it rejects never reach the handler. */
  filter?: (record: DynamoDBRecord) => boolean;
  batchSize?: number;
  /**
   * The longest wait between polls of an idle stream (200 ms). After records, the next poll follows at
   * once, and an idle stream is polled again after 10 ms, then 20, 40, … up to this: a write soon after
   * another is picked up within milliseconds, while a quiet stream costs five polls a second.
   */
  intervalMs?: number;
  /** Attempts per batch before its failed records are skipped (Lambda's maximumRetryAttempts). */
  maxAttempts?: number;
  /** Skip records written before the poller started (default: read from the oldest, at least once). */
  skipBacklog?: boolean;
  /** The worker, named in on-failure records as Lambda names the function. */
  functionName?: string;
  /** Where batches whose attempts ran out go (default: the StreamFailures queue of catalog/resources.ts). */
  onFailureQueueUrl?: string;
  /** The chaos mode (docs/chaos.md): parallel shards, redelivery, bisection, a maximum record age. */
  chaos?: Chaos;
}

/** Binary values as Lambda's JSON stream event carries them: base64 text. */
function asLambdaJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(asLambdaJson);
  if (value && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asLambdaJson(v)]));
  return value;
}

export function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ...(asLambdaJson(record.dynamodb) as DynamoDBRecord['dynamodb']),
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
        ? record.dynamodb.ApproximateCreationDateTime.getTime() / 1000
        : undefined,
    },
  };
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<Poller> {
  const dynamo = new DynamoDBClient({});
  const streams = new DynamoDBStreamsClient({});
  const table = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
  const batchSize = options.batchSize ?? 100;
  const maxAttempts = options.maxAttempts ?? 3;
  // Shards are known before this returns, so nothing written after start-up can be missed.
  const shards = await openStream(streams, streamArn, { fromEnd: options.skipBacklog });

  /** Like Lambda's on-failure destination: the batch's shard and sequence range go to a queue, so nothing is dropped silently. */
  async function recordFailure(
    shardId: string,
    failed: DynamoDBRecord[],
    attempts: number,
    threw: boolean,
    condition = 'RetryAttemptsExhausted',
  ) {
    const first = failed[0]?.dynamodb;
    const last = failed.at(-1)?.dynamodb;
    const queueUrl = options.onFailureQueueUrl ?? process.env[QUEUES.streamFailures.envVar];
    if (!first?.SequenceNumber || !last?.SequenceNumber) return;
    if (!queueUrl) {
      log(`dropping ${failed.length} stream record(s) on ${shardId} after ${attempts} attempts: no on-failure queue`);
      return;
    }
    const at = (seconds: number | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : undefined);
    const record: StreamFailureRecord = {
      requestContext: {
        requestId: randomUUID(),
        functionArn: options.functionName ? localFunctionArn(options.functionName) : undefined,
        condition,
        approximateInvokeCount: attempts,
      },
      responseContext: {
        statusCode: 200,
        executedVersion: '$LATEST',
        ...(threw ? { functionError: 'Unhandled' } : {}),
      },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: first.SequenceNumber,
        endSequenceNumber: last.SequenceNumber,
        approximateArrivalOfFirstRecord: at(first.ApproximateCreationDateTime),
        approximateArrivalOfLastRecord: at(last.ApproximateCreationDateTime),
        batchSize: failed.length,
        streamArn: streamArn ?? '',
      },
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(record) }));
        log(`${failed.length} stream record(s) on ${shardId} failed ${attempts} times: sent to the on-failure queue`);
        return;
      } catch (error) {
        if (attempt >= 3) return log(`could not record ${failed.length} failed stream record(s) on ${shardId}`, error);
        await sleep(200 * attempt);
      }
    }
  }

  async function deliver(shardId: string, records: StreamRecord[]) {
    if (options.chaos) {
      const selected = records
        .map((r) => toLambdaRecord(r, streamArn ?? ''))
        .filter((r) => !options.filter || options.filter(r));
      return deliverWithChaos(options.chaos, selected, {
        batchSize,
        maxAttempts,
        invoke: async (batch) => {
          try {
            const result = await options.handler({ Records: batch });
            return result?.batchItemFailures?.[0]?.itemIdentifier;
          } catch (error) {
            log(`stream handler threw on ${shardId}`, error);
            return THREW;
          }
        },
        giveUp: (failed, attempts, threw, condition) => recordFailure(shardId, failed, attempts, threw, condition),
      });
    }
    let pending = records;
    for (let attempt = 1; pending.length > 0; attempt++) {
      const selected = pending
        .map((r) => toLambdaRecord(r, streamArn ?? ''))
        .filter((r) => !options.filter || options.filter(r));
      if (selected.length === 0) return;
      let failedFrom: string | undefined;
      let threw = false;
      try {
        const result = await options.handler({ Records: selected });
        failedFrom = result?.batchItemFailures?.[0]?.itemIdentifier;
      } catch (error) {
        log(`stream handler threw on ${shardId}`, error);
        failedFrom = selected[0]?.dynamodb?.SequenceNumber;
        threw = true;
      }
      if (!failedFrom) return;
      // Lambda retries from the first failed record, in order, until attempts run out.
      const index = pending.findIndex((r) => r.dynamodb?.SequenceNumber === failedFrom);
      pending = index >= 0 ? pending.slice(index) : [];
      if (attempt >= maxAttempts) {
        const failed = pending
          .map((r) => toLambdaRecord(r, streamArn ?? ''))
          .filter((r) => !options.filter || options.filter(r));
        await recordFailure(shardId, failed, attempt, threw);
        return;
      }
      await sleep(100 * attempt);
    }
  }

  const following = shards.follow({
    limit: batchSize,
    minIdleMs: 10,
    maxIdleMs: options.intervalMs ?? 200,
    // DescribeStream on every round was most of an idle runtime's CPU; a closed shard still sends the
    // reader to its children at once.
    discoverEvery: 10,
    onRecords: deliver,
    onError: (error) => log('stream poll failed', error),
  });

  return {
    stop: async () => {
      await following.stop();
      dynamo.destroy();
      streams.destroy();
    },
  };
}

/** A scheduled worker: run once at start, then every `everySeconds`, one run at a time (like a rate rule). */
export function startSchedulePoller(options: {
  handler: (event: unknown) => Promise<unknown>;
  everySeconds: number;
}): Poller {
  let running = true;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      try {
        await options.handler({
          source: 'aws.events',
          'detail-type': 'Scheduled Event',
          time: new Date().toISOString(),
          detail: {},
        });
      } catch (error) {
        if (running) log('scheduled handler threw', error);
      }
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, options.everySeconds * 1000).unref();
      });
    }
  })();
  return {
    stop: async () => {
      running = false;
      wake?.();
      await loop;
    },
  };
}

export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface QueuePollerOptions {
  queueUrl: string;
  queueArn: string;
  handler: QueueHandler;
  batchSize?: number;
  /** Parallel receive loops, like Lambda's concurrent batches. */
  concurrency?: number;
  /** The chaos mode (docs/chaos.md): duplicates, reordering, expired visibility, throttled receives. */
  chaos?: Chaos;
}

function toSqsRecord(message: import('@aws-sdk/client-sqs').Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([k, v]) => [
        k,
        {
          stringValue: v.StringValue,
          binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
          stringListValues: [],
          binaryListValues: [],
          dataType: v.DataType ?? 'String',
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: queueArn.split(':')[3] ?? 'us-east-1',
  };
}

export function startQueuePoller(options: QueuePollerOptions): Poller {
  const sqs = sqsClient();
  const { chaos } = options;
  let running = true;
  const concurrency = Math.max(options.concurrency ?? 2, chaos?.faults.queueConcurrency ?? 0);
  const handle = async (records: SQSRecord[]) => {
    let failed: Set<string>;
    try {
      const result = await options.handler({ Records: records });
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      // A thrown batch fails whole: every message becomes visible again after its timeout.
      log('queue handler threw', error);
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length > 0) {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
  };
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize ?? 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        const messages = out.Messages ?? [];
        if (messages.length === 0) continue;
        const records = messages.map((m) => toSqsRecord(m, options.queueArn));
        if (chaos) await handleWithChaos(chaos, records);
        else await handle(records);
      } catch (error) {
        if (running) log('queue poll failed', error);
        await sleep(500);
      }
    }
  });
  /**
   * SQS standard queues and Lambda's poller at their unkindest: a throttled receive puts the message back
   * unhandled (the receive still counts toward maxReceiveCount), a message's visibility ends while its
   * consumer still works (another batch receives it meanwhile), a message comes twice, and a batch comes
   * in any order.
   */
  async function handleWithChaos(chaos: Chaos, received: SQSRecord[]) {
    const setVisibility = (record: SQSRecord, seconds: number) =>
      sqs
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: options.queueUrl,
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: seconds,
          }),
        )
        .catch((error: unknown) => log('chaos: could not change a visibility', error));
    const records: SQSRecord[] = [];
    for (const record of received) {
      if (chaos.strikes('queueThrottle')) await setVisibility(record, chaos.below(3, 'queueThrottleDelay'));
      else records.push(record);
    }
    chaos.shuffle(records, 'queueOrder');
    for (const record of records) if (chaos.strikes('queueVisibilityExpiry')) await setVisibility(record, 0);
    const duplicates = records.filter(() => chaos.strikes('queueDuplicate'));
    await Promise.all([records, duplicates].filter((batch) => batch.length > 0).map((batch) => handle(batch)));
  }

  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
