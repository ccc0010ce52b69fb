import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord, Context } from 'aws-lambda';
import { logger } from './observability';

/**
 * Queue and stream consumers are built on Powertools' BatchProcessor: each record is handled on its own
 * and failures are reported as batchItemFailures, so one bad record never fails its neighbours.
 */
export function sqsWorker(handleRecord: (record: SQSRecord) => Promise<void>) {
  const processor = new BatchProcessor(EventType.SQS);
  return (event: SQSEvent, context: Context) => processPartialResponse(event, handleRecord, processor, { context });
}

export function streamWorker(handleRecord: (record: DynamoDBRecord) => Promise<void>) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return (event: DynamoDBStreamEvent, context: Context) => processPartialResponse(event, handleRecord, processor, { context });
}

export { logger };
