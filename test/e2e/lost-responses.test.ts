import type { ChildProcess } from 'node:child_process';
import { DEFAULT_FAULTS } from '../../local/chaos/config';
import { spawnRuntime } from '../support/runtime-process.mjs';

/**
 * A write that commits and then loses its response is sent again by the AWS SDK, and the retry meets
 * its own committed write. A runtime in chaos mode with only that fault, on every write, shows that no
 * request mistakes its own write for someone else's (docs/chaos.md).
 */
const platformToken = `pt_lost_${Math.random().toString(36).slice(2)}`;
const onlyLostResponses = Object.keys(DEFAULT_FAULTS)
  .map((name) => `${name}=${name === 'lostResponse' ? 1 : 0}`)
  .join(',');
let runtime: ChildProcess | undefined;
let base = '';
beforeAll(async () => {
  const { child, info } = await spawnRuntime(
    {
      SEED_DEMO: 'false',
      DATA_DIR: '',
      PLATFORM_TOKEN: platformToken,
      LOG_LEVEL: 'error',
      CHAOS: '1',
      CHAOS_SEED: '1',
      CHAOS_FAULTS: onlyLostResponses,
    },
    { detached: true },
  );
  runtime = child;
  base = info.url;
}, 120_000);
afterAll(() => {
  if (runtime?.pid && runtime.exitCode === null) process.kill(-runtime.pid, 'SIGTERM');
});

async function api(
  method: string,
  path: string,
  opts: { token: string; tenant?: string; body?: unknown; key?: string },
) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${opts.token}`,
      ...(opts.tenant ? { 'X-Tenant-ID': opts.tenant } : {}),
      ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
      ...(opts.key ? { 'Idempotency-Key': opts.key } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any };
}

describe('a write whose response is lost', () => {
  it('still answers the first request with an Idempotency-Key as the first, and replays it after', async () => {
    const created = await api('POST', '/platform/tenants', {
      token: platformToken,
      body: { name: 'Lost Co', plan: 'pro', admin: { email: 'lost@example.com', password: 'a long enough password' } },
      key: 'tenant-1',
    });
    expect(created.status).toBe(201);
    const auth = { token: created.body.api_key.key as string, tenant: created.body.tenant.id as string };
    const body = { email: 'agent@example.com', password: 'another long password', role: 'agent' };
    const first = await api('POST', '/users', { ...auth, body, key: 'user-1' });
    expect(first.status).toBe(201);
    const again = await api('POST', '/users', { ...auth, body, key: 'user-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });
});
