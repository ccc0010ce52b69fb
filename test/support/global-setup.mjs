// Starts the real local runtime (`bin/local.ts`, what `npm start` runs) on a free port, once for the
// whole run, and shares its addresses with the tests through a file named in TEST_RUNTIME_FILE.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRuntime } from './runtime-process.mjs';
import { startFakeGraph } from './fake-graph.mjs';
import { startFakeStripe } from './fake-stripe.mjs';
import { makeTestTls } from './tls.mjs';

export const WHATSAPP_TEST_APP_ID = '1234567890';
export const WHATSAPP_TEST_APP_SECRET = 'whatsapp-app-secret-for-tests';
export const JWT_TEST_SECRET = 'test-only-jwt-secret-0123456789abcdef0123456789';
const DATA_KEY_TEST = 'test-only-data-key-0123456789abcdef0123456789ab';

export default async function globalSetup() {
  const file = join(tmpdir(), `messaging-test-runtime-${process.pid}.json`);
  const platformToken = `pt_test_${Math.random().toString(36).slice(2)}`;
  const graph = await startFakeGraph();
  const stripe = await startFakeStripe();
  globalThis.__FAKE_STRIPE__ = stripe.server;
  const tls = makeTestTls();
  globalThis.__TEST_TLS_DIR__ = tls.dir;
  globalThis.__FAKE_GRAPH__ = graph.server;
  const { child, info } = await spawnRuntime({
    SEED_DEMO: 'false',
    DATA_DIR: '',
    PLATFORM_TOKEN: platformToken,
    JWT_SECRET: JWT_TEST_SECRET,
    DATA_KEY: DATA_KEY_TEST,
    LOG_LEVEL: process.env.TEST_RUNTIME_LOG_LEVEL ?? 'error',
    WHATSAPP_GRAPH_URL: graph.url,
    // The official `stripe` client talks to the fake Stripe server (test/support/fake-stripe.mjs).
    STRIPE_API_URL: stripe.url,
    // The platform's Meta app: its secret signs every webhook (the fake Graph server signs its own with it).
    WHATSAPP_APP_ID: WHATSAPP_TEST_APP_ID,
    WHATSAPP_APP_SECRET: WHATSAPP_TEST_APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: 'platform-verify-token-for-tests',
    NODE_EXTRA_CA_CERTS: tls.ca,
    // Receivers run on this machine; the SSRF guard itself is tested with this off (integration).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOCAL_RUNTIME_FILE: join(tmpdir(), `messaging-test-runtime-ops-${process.pid}.json`),
    WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
    CHANNEL_RETRY_DELAY_SECONDS: '1',
    // Sandbox template reviews, scheduled messages and reminders fall due within a test's wait. Every 2 s,
    // not every second: each run costs the runtime about 0.15 s of CPU even with nothing due (its leases
    // and queries), a sixth of a core at one a second for as long as a runtime-backed step lasts.
    SANDBOX_TEMPLATE_REVIEW_SECONDS: '1',
    BUSINESS_SCHEDULER_INTERVAL_SECONDS: '2',
    // Each scheduler and sweeper run reads every shard of its kinds' due index: 4, not 60, in a runtime
    // that starts empty (the shard spreading is the same; 60 queries a kind were most of its idle CPU).
    DUE_INDEX_SHARDS: '4',
    WEBHOOK_TIMEOUT_MS: '1500',
    // Every test file logs in from 127.0.0.1; the per-IP login limit has its own runtime in a test.
    LOGIN_IP_LIMIT_PER_MINUTE: '100000',
    // Under chaos a dispatcher that times out after recording a delivery but before queuing it leaves it
    // to the sweeper (docs/chaos.md): sweep often, with a grace still well past the test retry delays, so
    // such a delivery resumes within the tests' waits rather than after the default five minutes.
    ...(process.env.CHAOS ? { SWEEP_INTERVAL_SECONDS: '2', WEBHOOK_SWEEP_GRACE_SECONDS: '8' } : {}),
  });
  await fetch(`${graph.url}/__config`, {
    method: 'POST',
    body: JSON.stringify({
      webhookUrl: `${info.url}/api/v1/channels/whatsapp/webhook`,
      appSecret: WHATSAPP_TEST_APP_SECRET,
      appId: WHATSAPP_TEST_APP_ID,
    }),
  });
  writeFileSync(
    file,
    JSON.stringify({
      ...info,
      platformToken,
      jwtSecret: JWT_TEST_SECRET,
      dataKey: DATA_KEY_TEST,
      graphUrl: graph.url,
      stripeUrl: stripe.url,
      tls,
      opsFile: join(tmpdir(), `messaging-test-runtime-ops-${process.pid}.json`),
      pid: child.pid,
    }),
  );
  process.env.TEST_RUNTIME_FILE = file;
  // The test files that write due items themselves (integration) use the runtime's shard count.
  process.env.DUE_INDEX_SHARDS = '4';
  globalThis.__LOCAL_RUNTIME__ = child;
}
