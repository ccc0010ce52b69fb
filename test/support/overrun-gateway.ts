/**
 * The local gateway with a stand-in for a faulty handler on `GET /api/v1/openapi.json`, in its own process
 * (as the runtime serves): `?mode=spin` spins synchronously after a first await, as a handler stuck in a
 * loop after its reads would; `?mode=hang` never settles; anything else answers 200 at once. It has a
 * child process to end with it, as the runtime has DynamoDB Local. Prints `listening <port> child <pid>`.
 * GATEWAY_TIMEOUT_MS sets the handlers' timeout.
 */
import { spawn } from 'node:child_process';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createGateway } from '../../local/gateway';
import { endWithRuntime } from '../../local/watchdog';

const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
endWithRuntime(child.pid);

async function faulty(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const mode = event.queryStringParameters?.mode;
  await new Promise((resolve) => setImmediate(resolve));
  if (mode === 'spin') for (;;);
  if (mode === 'hang') await new Promise(() => undefined);
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' };
}

const server = createGateway(new Map([['openapi', faulty]]), {
  handlerTimeoutMs: Number(process.env.GATEWAY_TIMEOUT_MS ?? 1000),
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0} child ${child.pid}`);
});
