import { SQSClient } from '@aws-sdk/client-sqs';
import { sdkClientHooks, usageOfCurrentInvocation } from './db';

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
    for (const hook of sdkClientHooks) hook(client);
  }
  return client;
}

/**
 * A queue message's body: JSON with U+FFFE, U+FFFF and the characters beyond U+FFFF (emoji) escaped
 * (`\ufffe`, `\ud83d\ude21`). SQS refuses the first two (outside XML's range; JSON and our text fields
 * allow them), and the local emulator refuses the others, so a message carrying one would never be queued.
 * Everything else stays as it is, so a body grows only by what needs escaping; `JSON.parse` restores it.
 */
export const queueBody = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[\ud800-\udfff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
