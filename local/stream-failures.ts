/**
 * Stream batches the workers gave up on. Lambda sends an on-failure record to the StreamFailures queue
 * (catalog/resources.ts) naming the shard and sequence range, not the records; the local stream poller
 * sends the same shape. `npm run ops -- replay-stream-failures` reads the records back from the stream
 * while it still holds them (24 hours) and hands them to the worker again.
 */
import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';

/** Lambda's on-failure invocation record for a DynamoDB stream (the fields used here). */
export interface StreamFailureRecord {
  requestContext: { requestId: string; functionArn?: string; condition: string; approximateInvokeCount: number };
  responseContext?: { statusCode?: number; executedVersion?: string; functionError?: string };
  version: string;
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord?: string;
    approximateArrivalOfLastRecord?: string;
    batchSize: number;
    streamArn: string;
  };
}

/** The function ARN the local runtime gives a worker (as its Lambda context does). */
export const localFunctionArn = (functionName: string) => `arn:aws:lambda:local:000000000000:function:${functionName}`;

/** The function name in a function ARN, without a version or alias. */
export const functionNameOf = (arn: string | undefined): string | undefined => arn?.split(':')[6];

/** How long DynamoDB Streams keep a record. */
export const STREAM_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * The records of a failed batch, start to end inclusive (unfiltered: the caller applies the worker's
 * filters). Throws TrimmedDataAccessException once the records are past the stream's retention.
 */
export async function readFailedRecords(
  streams: DynamoDBStreamsClient,
  batch: StreamFailureRecord['DDBStreamBatchInfo'],
): Promise<StreamRecord[]> {
  const end = BigInt(batch.endSequenceNumber);
  let iterator = (
    await streams.send(
      new GetShardIteratorCommand({
        StreamArn: batch.streamArn,
        ShardId: batch.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: batch.startSequenceNumber,
      }),
    )
  ).ShardIterator;
  const records: StreamRecord[] = [];
  // An open shard can answer empty pages before the next records; a closed one ends with no iterator.
  for (let emptyPages = 0; iterator && emptyPages < 20;) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    iterator = page.NextShardIterator;
    emptyPages = page.Records?.length ? 0 : emptyPages + 1;
    for (const record of page.Records ?? []) {
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') > end) return records;
      records.push(record);
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') === end) return records;
    }
  }
  // Never hand on part of a batch as if it were all of it.
  throw new Error(`read ${records.length} record(s) of ${batch.shardId} but not up to ${batch.endSequenceNumber}`);
}
