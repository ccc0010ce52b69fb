import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';
import { spawnRuntime } from '../support/runtime-process.mjs';

/**
 * Every delivery ends in a final state, whatever crashes: deliveries in the middle of their retries
 * survive a `kill -9` of the whole local runtime (its in-memory queue is lost with it) and a restart on
 * the same DATA_DIR, and then succeed once the receiver is healthy again.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'crash-recovery-'));
const platformToken = `pt_crash_${Math.random().toString(36).slice(2)}`;
const env = {
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  PLATFORM_TOKEN: platformToken,
  NODE_EXTRA_CA_CERTS: testRuntime().tls.ca,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  // Two quick failures, then a long wait: the kill lands between the second and the third attempt.
  WEBHOOK_RETRY_DELAYS: '1,8,8,8,8',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_SWEEP_GRACE_SECONDS: '2',
  WEBHOOK_SWEEP_INTERVAL_SECONDS: '1',
  LOG_LEVEL: 'error',
  LOCAL_RUNTIME_FILE: join(dataDir, 'runtime.json'),
};
let running: ChildProcess | undefined;
afterAll(() => {
  if (running?.pid && running.exitCode === null) process.kill(-running.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(
  base: string,
  method: string,
  path: string,
  opts: { token: string; tenant?: string; body?: unknown },
) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${opts.token}`,
      ...(opts.tenant ? { 'X-Tenant-ID': opts.tenant } : {}),
      ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('deliveries mid-retry survive a kill -9 of the runtime and all end succeeded after a restart', async () => {
  const receiver = await startReceiver(() => ({ status: 500, body: 'down' }));
  try {
    const first = await spawnRuntime(env, { detached: true });
    running = first.child;
    const base = first.info.url;
    const created = await api(base, 'POST', '/platform/tenants', {
      token: platformToken,
      body: {
        name: 'Crash Co',
        plan: 'pro',
        admin: { email: 'crash@example.com', password: 'correct horse battery staple' },
      },
    });
    expect(created.status).toBe(201);
    const auth = { token: created.body.api_key.key as string, tenant: created.body.tenant.id as string };
    const endpoint = await api(base, 'POST', '/webhooks', {
      ...auth,
      body: { url: receiver.url(), events: ['conversation.created'] },
    });
    expect(endpoint.status).toBe(201);
    for (const n of [1, 2, 3]) {
      expect(
        (
          await api(base, 'POST', '/channels/sandbox/inbound', {
            ...auth,
            body: { from: `+49151600070${n}`, text: 'hello' },
          })
        ).status,
      ).toBe(201);
    }
    const deliveries = `/webhooks/${endpoint.body.id}/deliveries`;
    const midRetry = await until(
      () => api(base, 'GET', deliveries, auth),
      (r) => r.body?.data?.length === 3 && r.body.data.every((d: any) => d.attempts.length === 2),
      30_000,
    );
    expect(midRetry.body.data.every((d: any) => d.status === 'pending')).toBe(true);

    // A crash: the runtime, DynamoDB Local and the in-memory queue (with the retry messages) all die at once.
    process.kill(-(first.child.pid as number), 'SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    receiver.setBehaviour(() => ({ status: 204 }));

    const second = await spawnRuntime(env, { detached: true });
    running = second.child;
    const done = await until(
      () => api(second.info.url, 'GET', deliveries, auth),
      (r) => r.body?.data?.length === 3 && r.body.data.every((d: any) => d.status === 'succeeded'),
      60_000,
    );
    for (const d of done.body.data) {
      expect(d.attempts.length).toBeGreaterThanOrEqual(3);
      expect(d.attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
    }
    process.kill(-(second.child.pid as number), 'SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  } finally {
    await receiver.close();
  }
}, 180_000);
