import { SQSClient } from '@aws-sdk/client-sqs';

let client: SQSClient | undefined;

/**
 * One SQS client per process. Requests go to the configured endpoint with the queue URL in the body
 * (useQueueUrlAsEndpoint: false): right for real SQS, and it lets the local emulator's URLs work as-is.
 */
export function sqsClient(): SQSClient {
  client ??= new SQSClient({ useQueueUrlAsEndpoint: false });
  return client;
}
