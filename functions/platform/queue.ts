import { SQSClient } from '@aws-sdk/client-sqs';
import { usageOfCurrentInvocation } from './db';

let client: SQSClient | undefined;

/**
 * One SQS client per process. Requests go to the configured endpoint with the queue URL in the body
 * (useQueueUrlAsEndpoint: false): right for real SQS, and it lets the local emulator's URLs work as-is.
 */
export function sqsClient(): SQSClient {
  if (!client) {
    client = new SQSClient({ useQueueUrlAsEndpoint: false });
    // Counted per invocation for `npm run bench` (see db.ts); outside the local runtime this does nothing.
    client.middlewareStack.add(
      (next) => async (args) => {
        const usage = usageOfCurrentInvocation();
        if (usage) usage.sqsRequests += 1;
        return next(args);
      },
      { step: 'initialize', name: 'countRequests' },
    );
  }
  return client;
}
