/**
 * A local stand-in for Lambda's Invoke API, for the asynchronous invocations workers make of each other
 * (catalog/workers.ts `invokes`, functions/platform/invoke.ts): the SDK's request comes here through
 * AWS_ENDPOINT_URL_LAMBDA. Like Lambda with no retries configured, it answers 202, runs the worker's
 * handler once, and puts a failed invocation's destination record on the worker's on-failure queue.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueBody, sqsClient } from '../functions/platform/queue';
import { localFunctionArn } from './stream-failures';
import type { Chaos } from './chaos/config';

export interface InvocableWorker {
  invoke(payload: unknown): Promise<unknown>;
  onFailureQueueUrl: string;
}

const PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
/**
 * Lambda's internal queue hands an event over some milliseconds after accepting it; waiting as long here
 * also lets the invoker's invocation end first, so the two do not share their CPU time (npm run bench
 * prices each invocation by the process's CPU time while it runs, and in AWS they run apart).
 */
const HAND_OVER_MS = 10;

const log = (message: string, error?: unknown) =>
  console.error(`[lambda] ${message}`, error instanceof Error ? error.message : (error ?? ''));

/**
 * Lambda's destination record of a failed asynchronous invocation (the fields Lambda writes); with no
 * error, one that waited past its maximum event age and never ran.
 */
export function failureDestinationRecord(functionName: string, payload: unknown, error?: unknown) {
  const record = (condition: 'EventAgeExceeded' | 'RetriesExhausted', approximateInvokeCount: number) => ({
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: randomUUID(),
      functionArn: `${localFunctionArn(functionName)}:$LATEST`,
      condition,
      approximateInvokeCount,
    },
    requestPayload: payload,
  });
  if (error === undefined) return record('EventAgeExceeded', 0);
  return {
    ...record('RetriesExhausted', 1),
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: {
      errorType: error instanceof Error ? error.name : 'Error',
      errorMessage: error instanceof Error ? error.message : JSON.stringify(error),
    },
  };
}

/**
 * Listens on loopback; `workers` (by function name) may be filled in after it starts. With `chaos`
 * (docs/chaos.md), Lambda's asynchronous invocation at its unkindest: an event waits longer in Lambda's
 * queue, runs twice (at least once), or ages out to its destination without running.
 */
export async function startInvokeEndpoint(
  workers: ReadonlyMap<string, InvocableWorker>,
  chaos?: Chaos,
): Promise<{ url: string; stop(): Promise<void> }> {
  const running = new Set<Promise<void>>();

  async function runOnce(name: string, worker: InvocableWorker, payload: unknown) {
    if (chaos?.strikes('invokeAgeOut')) return toDestination(name, worker, payload);
    try {
      await worker.invoke(payload);
    } catch (error) {
      await toDestination(name, worker, payload, error);
    }
  }

  async function toDestination(name: string, worker: InvocableWorker, payload: unknown, error?: unknown) {
    // Lambda loses a destination record only when the destination refuses it (DestinationDeliveryFailures).
    if (chaos?.strikes('invokeDropDestination')) return log(`chaos: dropped the destination record of ${name}`);
    try {
      await sqsClient().send(
        new SendMessageCommand({
          QueueUrl: worker.onFailureQueueUrl,
          MessageBody: queueBody(failureDestinationRecord(name, payload, error)),
        }),
      );
    } catch (sendError) {
      log(`could not record a failed invocation of ${name}`, sendError);
    }
  }

  const accept = (name: string, worker: InvocableWorker, payload: unknown) => {
    const waitMs = HAND_OVER_MS + (chaos ? chaos.upTo('invokeDelayMs') : 0);
    const run = new Promise<void>((r) => setTimeout(r, waitMs)).then(() => runOnce(name, worker, payload));
    running.add(run);
    void run.finally(() => running.delete(run));
  };

  const answer = (res: ServerResponse, status: number, type?: string, message?: string) => {
    res.writeHead(status, type ? { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type } : {});
    res.end(type ? JSON.stringify({ Type: 'User', message }) : undefined);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const name = decodeURIComponent(PATH.exec(req.url?.split('?')[0] ?? '')?.[1] ?? '');
      const worker = workers.get(name);
      if (req.method !== 'POST' || !worker)
        return answer(res, 404, 'ResourceNotFoundException', `Function not found: ${name}`);
      if (req.headers['x-amz-invocation-type'] !== 'Event')
        return answer(res, 400, 'InvalidParameterValueException', 'Only asynchronous (Event) invocations here');
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      } catch {
        return answer(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
      }
      answer(res, 202);
      accept(name, worker, payload);
      if (chaos?.strikes('invokeDuplicate')) accept(name, worker, payload);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      // No new invocation once closed; then every accepted one ends (or records its failure).
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
