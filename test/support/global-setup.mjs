// Starts the real local runtime (`bin/local.ts`, what `npm start` runs) on a free port, once for the
// whole run, and shares its addresses with the tests through a file named in TEST_RUNTIME_FILE.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeGraph } from './fake-graph.mjs';
import { makeTestTls } from './tls.mjs';

export const JWT_TEST_SECRET = 'test-only-jwt-secret-0123456789abcdef0123456789';

export default async function globalSetup() {
  const file = join(tmpdir(), `messaging-test-runtime-${process.pid}.json`);
  const platformToken = `pt_test_${Math.random().toString(36).slice(2)}`;
  const graph = await startFakeGraph();
  const tls = makeTestTls();
  globalThis.__FAKE_GRAPH__ = graph.server;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: {
      ...process.env,
      PORT: '0',
      SEED_DEMO: 'false',
      DATA_DIR: '',
      PLATFORM_TOKEN: platformToken,
      JWT_SECRET: JWT_TEST_SECRET,
      POWERTOOLS_LOG_LEVEL: process.env.TEST_RUNTIME_LOG_LEVEL ?? 'ERROR',
      WHATSAPP_GRAPH_URL: `${graph.url}/v21.0`,
      NODE_EXTRA_CA_CERTS: tls.ca,
      // Receivers run on this machine; the SSRF guard itself is tested with this off (integration).
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOCAL_RUNTIME_FILE: join(tmpdir(), `messaging-test-runtime-ops-${process.pid}.json`),
      WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '1500',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local runtime did not start:\n${output}`)), 90_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const url = /API ready at (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          url,
          dynamoEndpoint: /DynamoDB Local at (\S+)/.exec(output)?.[1] ?? '',
          sqsEndpoint: /SQS emulator at (\S+)/.exec(output)?.[1] ?? '',
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      onData(chunk);
      if (process.env.TEST_RUNTIME_VERBOSE) process.stderr.write(chunk);
    });
    child.on('exit', (code) => reject(new Error(`local runtime exited with ${code}:\n${output}`)));
  });
  writeFileSync(file, JSON.stringify({ ...info, platformToken, jwtSecret: JWT_TEST_SECRET, graphUrl: graph.url, tls, opsFile: join(tmpdir(), `messaging-test-runtime-ops-${process.pid}.json`), pid: child.pid }));
  process.env.TEST_RUNTIME_FILE = file;
  globalThis.__LOCAL_RUNTIME__ = child;
}
