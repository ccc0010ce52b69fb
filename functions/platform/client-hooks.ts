import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';

/** The AWS SDK clients the functions make once per process (db.ts, queue.ts, invoke.ts). */
export type SharedClient =
  | { service: 'dynamodb'; client: DynamoDBClient }
  | { service: 'sqs'; client: SQSClient }
  | { service: 'lambda'; client: LambdaClient };
type ClientHook = (made: SharedClient) => void;

const made: SharedClient[] = [];
const hooks: ClientHook[] = [];

/** Called by db.ts and queue.ts when they make their client. */
export function clientMade(client: SharedClient): void {
  made.push(client);
  for (const hook of hooks) hook(client);
}

/**
 * Lets the process that hosts the functions add middleware to their clients, made already or later: the
 * local runtime adds its per-invocation accounting (local/usage.ts) and its chaos mode (local/chaos/).
 * Nothing does in Lambda.
 */
export function onClientMade(hook: ClientHook): void {
  hooks.push(hook);
  for (const client of made) hook(client);
}
