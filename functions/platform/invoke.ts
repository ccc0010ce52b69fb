import type { LambdaClient } from '@aws-sdk/client-lambda';
import { WORKERS } from '../../catalog/workers';
import { requireEnv } from './config';
import { clientMade } from './client-hooks';

let lambda: Promise<{ client: LambdaClient; InvokeCommand: typeof import('@aws-sdk/client-lambda').InvokeCommand }>;

/**
 * Hands `payload` to another worker by Lambda's asynchronous invocation (catalog/workers.ts `invokes`):
 * Lambda queues it internally and answers 202, so the caller waits for the hand-off only, as it would
 * for an SQS send, and no queue request is paid for the first attempt. The client is imported on first
 * use and taken from the Lambda runtime's SDK (catalog/bundling.ts): the dispatcher's cold start, mostly
 * for events, does not parse it. The endpoint comes from the SDK's AWS_ENDPOINT_URL_LAMBDA, which the
 * local runtime sets to its own stand-in.
 */
export async function invokeWorker(workerId: string, payload: unknown): Promise<void> {
  const target = WORKERS.find((w) => w.id === workerId)?.asyncInvoke;
  if (!target) throw new Error(`${workerId} is not invoked asynchronously`);
  lambda ??= import('@aws-sdk/client-lambda').then((sdk) => {
    const client = new sdk.LambdaClient({});
    clientMade({ service: 'lambda', client });
    return { client, InvokeCommand: sdk.InvokeCommand };
  });
  const { client, InvokeCommand } = await lambda;
  const out = await client.send(
    new InvokeCommand({
      FunctionName: requireEnv(target.envVar),
      InvocationType: 'Event',
      Payload: new TextEncoder().encode(JSON.stringify(payload)),
    }),
  );
  if (out.StatusCode !== 202) throw new Error(`asynchronous invocation of ${workerId} answered ${out.StatusCode}`);
}
