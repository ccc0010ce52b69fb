import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handler } from '../../functions/saved-replies/create';
import { httpApiEvent } from '../../local/http-event';
import { authOf, createTenant, listEventually, type TestTenant } from '../support/api';
import { useRuntimeAws } from '../support/aws';
import { failCalls } from '../support/dynamo-faults';

/**
 * When a POST's handler has committed and only storing its idempotent response fails, the key stays
 * taken: the client's retry with the same key answers 409 and never runs the POST a second time. The
 * handler runs in this process (as Lambda runs it) so the failure can be injected into its client.
 */
useRuntimeAws();

const post = (t: TestTenant, path: string, body: unknown, key: string): APIGatewayProxyEventV2 =>
  httpApiEvent({
    method: 'POST',
    rawPath: `/api/v1${path}`,
    routeKey: `POST /api/v1${path}`,
    headers: {
      authorization: `Bearer ${t.apiKey}`,
      'x-tenant-id': t.tenantId,
      'content-type': 'application/json',
      'idempotency-key': key,
      'user-agent': 'test',
    },
    body: JSON.stringify(body),
  });

const invoke = async (event: APIGatewayProxyEventV2) =>
  await handler(event, { awsRequestId: 'lambda-request-id' } as Context);

const storingResponse = (command: string, input: Record<string, any>) =>
  command === 'UpdateItemCommand' &&
  String(input.Key?.pk ?? '').startsWith('IDEM#') &&
  String(input.UpdateExpression).includes('#response');

it('a committed POST whose response could not be stored is not run again on retry', async () => {
  const t = await createTenant();
  const body = { shortcut: 'hours', title: 'Opening hours', text: 'We are open 9 to 5.' };
  const stop = failCalls(
    storingResponse,
    () =>
      Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
        name: 'ThrottlingException',
        $metadata: {},
      }),
    100,
  );
  let first;
  try {
    first = await invoke(post(t, '/saved-replies', body, 'key-lost-response'));
  } finally {
    stop();
  }
  expect(first.statusCode).toBeGreaterThanOrEqual(500);

  const retried = await invoke(post(t, '/saved-replies', body, 'key-lost-response'));
  expect(retried.statusCode).toBe(409);
  expect(JSON.parse(String(retried.body))).toMatchObject({ code: 'idempotency_request_in_progress' });
  // The list is eventually consistent: the reply shows soon, and only once.
  const replies = await listEventually('/saved-replies', authOf(t), (body) => body.data.length > 0);
  expect(replies.body.data).toHaveLength(1);
});

it('a handler that failed releases its key, so the retry runs', async () => {
  const t = await createTenant();
  const body = { shortcut: 'hello', title: 'Hello', text: 'Hello there.' };
  // The handler's own write fails (throttled past the SDK's retries): nothing was committed.
  const stop = failCalls(
    (command, input) =>
      command === 'TransactWriteItemsCommand' ||
      (command === 'PutItemCommand' && !String(input.Item?.pk ?? '').startsWith('IDEM#')),
    () => Object.assign(new Error('throttled'), { name: 'ThrottlingException', $metadata: {} }),
    100,
  );
  let first;
  try {
    first = await invoke(post(t, '/saved-replies', body, 'key-handler-failed'));
  } finally {
    stop();
  }
  expect(first.statusCode).toBeGreaterThanOrEqual(500);
  const retried = await invoke(post(t, '/saved-replies', body, 'key-handler-failed'));
  expect(retried.statusCode).toBe(201);
  const replayed = await invoke(post(t, '/saved-replies', body, 'key-handler-failed'));
  expect(replayed.statusCode).toBe(201);
  expect(replayed.headers?.['Idempotent-Replayed']).toBe('true');
  expect((await listEventually('/saved-replies', authOf(t), (b) => b.data.length > 0)).body.data).toHaveLength(1);
});
