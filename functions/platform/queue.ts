import { SQSClient } from '@aws-sdk/client-sqs';
import { clientMade } from './client-hooks';

let client: SQSClient | undefined;

/**
 * One SQS client per process. Requests go to the configured endpoint with the queue URL in the body
 * (useQueueUrlAsEndpoint: false): right for real SQS, and it lets the local emulator's URLs work as-is.
 */
export function sqsClient(): SQSClient {
  if (!client) {
    client = new SQSClient({ useQueueUrlAsEndpoint: false });
    clientMade({ service: 'sqs', client });
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
