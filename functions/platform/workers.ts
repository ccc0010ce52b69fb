import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord, Context } from 'aws-lambda';
import { clock } from './clock';
import { LAST_WRITE_ID } from './db';
import { SCHEDULED_RUN_LEASE_MS, acquireLease, releaseLease } from './leases';
import { logger } from './observability';

type StreamValue = Record<string, unknown>;

/** Lambda's stream event is JSON, so binary values arrive as base64 text: back to bytes, as the SDK reads them. */
function bytesOf(value: StreamValue): StreamValue {
  const [type, v] = Object.entries(value)[0] ?? [];
  if (type === 'B' && typeof v === 'string') return { B: Buffer.from(v, 'base64') };
  if (type === 'BS' && Array.isArray(v))
    return { BS: (v as unknown[]).map((b) => (typeof b === 'string' ? Buffer.from(b, 'base64') : b)) };
  if (type === 'M' && v && typeof v === 'object')
    return { M: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bytesOf(x as StreamValue)])) };
  if (type === 'L' && Array.isArray(v)) return { L: (v as unknown[]).map((x) => bytesOf(x as StreamValue)) };
  return value;
}

/** A stream record's new image as a plain item (binary attributes as bytes, no write id); undefined for a removal. */
export function newImageOf(record: DynamoDBRecord): Record<string, unknown> | undefined {
  const image = record.dynamodb?.NewImage as Record<string, StreamValue> | undefined;
  if (!image) return undefined;
  const decoded = Object.fromEntries(
    Object.entries(image)
      .filter(([k]) => k !== LAST_WRITE_ID)
      .map(([k, v]) => [k, bytesOf(v)]),
  );
  return unmarshall(decoded as unknown as Record<string, AttributeValue>);
}

/**
 * Queue and stream consumers are built on Powertools' BatchProcessor: each record is handled on its own
 * and failures are reported as batchItemFailures, so one bad record never fails its neighbours.
 */
/** Logs why a record failed (name and message only: payloads may hold personal data) and rethrows. */
const logged =
  <R>(kind: string, handle: (record: R) => Promise<void>) =>
  async (record: R) => {
    try {
      await handle(record);
    } catch (error) {
      logger.warn(`${kind} record failed`, {
        error_name: (error as Error).name,
        error_message: (error as Error).message,
        stack: (error as Error).stack?.split('\n').slice(1, 6).join(' | '),
      });
      throw error;
    }
  };

export function sqsWorker(handleRecord: (record: SQSRecord) => Promise<void>) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) => {
    logger.resetKeys();
    return processPartialResponse(event, logged('queue', handleRecord), processor, { context });
  };
}

/**
 * `prepareBatch` runs once before the records, for what a whole batch can share (one read instead of
 * one per record); if it throws, the batch fails whole and is retried.
 */
export function streamWorker<B = undefined>(
  handleRecord: (record: DynamoDBRecord, batch: B) => Promise<void>,
  prepareBatch?: (records: DynamoDBRecord[]) => Promise<B>,
) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return async (event: DynamoDBStreamEvent, context: Context) => {
    logger.resetKeys();
    const batch = (prepareBatch ? await prepareBatch(event.Records) : undefined) as B;
    return processPartialResponse(
      event,
      logged('stream', (record: DynamoDBRecord) => handleRecord(record, batch)),
      processor,
      { context },
    );
  };
}

/**
 * A worker invoked both asynchronously (catalog/workers.ts `asyncInvoke`: the invoker's payload, one item)
 * and from its retry queue (an SQS batch): the payload is handled alone, and a failure throws, so Lambda
 * puts its destination record on the queue; the batch goes through `fromQueue`.
 */
export function invokedOrQueuedWorker<P>(
  handlePayload: (payload: P) => Promise<void>,
  fromQueue: (event: SQSEvent, context: Context) => Promise<unknown>,
) {
  const handlePayloadLogged = logged('invocation', handlePayload);
  return async (event: P | SQSEvent, context: Context): Promise<unknown> => {
    if (isSqsEvent(event)) return fromQueue(event, context);
    logger.resetKeys();
    await handlePayloadLogged(event);
    return undefined;
  };
}

const isSqsEvent = (event: unknown): event is SQSEvent =>
  Array.isArray((event as SQSEvent | undefined)?.Records) &&
  (event as SQSEvent).Records.every((r) => r.eventSource === 'aws:sqs');

/**
 * A scheduled worker (catalog/workers.ts `schedule`) whose runs never overlap: a run first takes the worker's
 * lease, and while another run holds it (a slow run, EventBridge's at-least-once delivery of a tick, a
 * second runtime on the same tables) it ends at once with `idle` and `skipped: true`. A lease stands in
 * for reserved concurrency of 1, which a new account's concurrency quota cannot spare.
 */
export function scheduledWorker<R extends object>(name: string, idle: R, run: (now: Date) => Promise<R>) {
  return async (): Promise<R & { skipped: boolean }> => {
    logger.resetKeys();
    const now = clock.now();
    const lease = await acquireLease(name, now, SCHEDULED_RUN_LEASE_MS);
    if (!lease) {
      logger.info('scheduled run skipped: another run holds the lease', { worker: name });
      return { ...idle, skipped: true };
    }
    try {
      return { ...(await run(now)), skipped: false };
    } finally {
      // A lease that cannot be given back lapses on its own.
      await releaseLease(lease).catch((error: Error) =>
        logger.warn('scheduled run could not release its lease', { worker: name, error_name: error.name }),
      );
    }
  };
}

export { logger };
