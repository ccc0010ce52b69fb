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
      // The test endpoint is on this machine; nothing is delivered to it.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
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

/** A tenant made through the platform API (`Lost Co <n>`), as its API key. */
async function newTenant(n: number) {
  const created = await api('POST', '/platform/tenants', {
    token: platformToken,
    body: {
      name: `Lost Co ${n}`,
      plan: 'pro',
      admin: { email: `lost${n}@example.com`, password: 'a long enough password' },
    },
  });
  expect(created.status).toBe(201);
  return { token: created.body.api_key.key as string, tenant: created.body.tenant.id as string };
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

  it('creates what a conditional write creates, rather than finding it there already', async () => {
    const auth = await newTenant(2);
    const every = [{ start: '09:00', end: '18:00' }];
    const schedule = await api('POST', '/schedules', {
      ...auth,
      body: { resource_id: 'chair-1', timezone: 'UTC', weekly_hours: { mon: every } },
    });
    expect([schedule.status, schedule.body.code]).toEqual([201, undefined]);
    const conversation = await api('POST', '/conversations', {
      ...auth,
      body: { channel: 'sandbox', customer: { phone: '+491511000777', name: 'Lu' } },
    });
    expect([conversation.status, conversation.body.code]).toEqual([201, undefined]);
    const booking = await api('POST', '/bookings', {
      ...auth,
      body: {
        customer: { phone: '+491511000777' },
        service: 'Cut',
        resource_id: 'chair-1',
        start_at: '2031-02-03T09:00:00Z',
        end_at: '2031-02-03T10:00:00Z',
        timezone: 'UTC',
      },
    });
    expect([booking.status, booking.body.code]).toEqual([201, undefined]);
    const webhook = await api('POST', '/webhooks', {
      ...auth,
      body: { url: 'https://127.0.0.1/hooks', events: ['booking.*'] },
    });
    expect([webhook.status, webhook.body.code]).toEqual([201, undefined]);
    const reply = await api('POST', '/saved-replies', {
      ...auth,
      body: { shortcut: 'hi', title: 'Hi', text: 'Hello!' },
    });
    expect([reply.status, reply.body.code]).toEqual([201, undefined]);
  });

  it('rotates a refresh token once, rather than taking its own rotation for a reuse and ending the session', async () => {
    const email = 'lost4@example.com';
    const password = 'a long enough password';
    const created = await api('POST', '/platform/tenants', {
      token: platformToken,
      body: { name: 'Lost Co 4', plan: 'pro', admin: { email, password } },
    });
    expect(created.status).toBe(201);
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Tenant-ID': created.body.tenant.id },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    let refreshToken = ((await login.json()) as { refresh_token: string }).refresh_token;
    for (let i = 0; i < 2; i++) {
      const refreshed = await fetch(`${base}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      const body = (await refreshed.json()) as { refresh_token: string; code?: string };
      expect([refreshed.status, body.code]).toEqual([200, undefined]);
      refreshToken = body.refresh_token;
    }
  });

  it('deletes what a conditional delete deletes, rather than finding it gone already', async () => {
    const auth = await newTenant(3);
    const schedule = await api('POST', '/schedules', {
      ...auth,
      body: { resource_id: 'chair-2', timezone: 'UTC', weekly_hours: { mon: [{ start: '09:00', end: '18:00' }] } },
    });
    expect(schedule.status).toBe(201);
    // An update without If-Match, sent again after its lost response, adds one version, not two.
    const changed = await api('PATCH', '/schedules/chair-2', { ...auth, body: { buffer_before_minutes: 5 } });
    expect([changed.status, changed.body.version]).toEqual([200, 2]);
    const deleted = await fetch(`${base}/api/v1/schedules/chair-2`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${auth.token}`, 'X-Tenant-ID': auth.tenant, 'If-Match': '"2"' },
    });
    expect(deleted.status).toBe(204);
    expect((await api('GET', '/schedules/chair-2', auth)).status).toBe(404);
  });
});
