import { randomUUID } from 'node:crypto';
import { call, createTenant, settlesTo, type TestTenant } from '../support/api';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});

const createUser = (key: string, email: string) =>
  call('POST', '/users', {
    tenant: t.tenantId,
    token: t.apiKey,
    headers: { 'Idempotency-Key': key },
    body: { email, password: 'idempotent password' },
  });

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same key and body, without doing the work twice', async () => {
    const key = randomUUID();
    const email = `idem-${key.slice(0, 8)}@example.com`;
    const first = await createUser(key, email);
    expect(first.status).toBe(201);
    const second = await createUser(key, email);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Without the key, the same body really runs again and conflicts.
    const again = await call('POST', '/users', {
      tenant: t.tenantId,
      token: t.apiKey,
      body: { email, password: 'idempotent password' },
    });
    expect(again.status).toBe(409);
  });

  it('returns 422 for the same key with a different body', async () => {
    const key = randomUUID();
    expect((await createUser(key, `a-${key.slice(0, 8)}@example.com`)).status).toBe(201);
    const reused = await createUser(key, `b-${key.slice(0, 8)}@example.com`);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('returns 409 while the first request is still running, and runs the work once', async () => {
    const key = randomUUID();
    const email = `race-${key.slice(0, 8)}@example.com`;
    const results = await Promise.all(Array.from({ length: 8 }, () => createUser(key, email)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    expect(fresh).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts.length).toBeGreaterThan(0);
    for (const c of conflicts) {
      expect(c.body.code).toBe('idempotency_request_in_progress');
      // Worth retrying shortly: then the first request's response is replayed.
      expect(c.headers.get('retry-after')).toBe('1');
    }
    const again = await createUser(key, email);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys by tenant', async () => {
    const other = await createTenant();
    const key = randomUUID();
    const email = `scoped-${key.slice(0, 8)}@example.com`;
    expect((await createUser(key, email)).status).toBe(201);
    const res = await call('POST', '/users', {
      tenant: other.tenantId,
      token: other.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { email, password: 'idempotent password' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not store errors: the key can be retried after a failure', async () => {
    const key = randomUUID();
    const bad = await call('POST', '/users', {
      tenant: t.tenantId,
      token: t.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { email: 'not-an-email', password: 'idempotent password' },
    });
    expect(bad.status).toBe(422);
    const fixedBody = await call('POST', '/users', {
      tenant: t.tenantId,
      token: t.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { email: `fixed-${key.slice(0, 8)}@example.com`, password: 'idempotent password' },
    });
    expect(fixedBody.status).toBe(201);
    expect(fixedBody.headers.get('idempotent-replayed')).toBeNull();
  });

  it('ignores key order and whitespace when comparing bodies', async () => {
    const key = randomUUID();
    const email = `order-${key.slice(0, 8)}@example.com`;
    const headers = { 'Idempotency-Key': key, 'Content-Type': 'application/json' };
    expect(
      (
        await call('POST', '/users', {
          tenant: t.tenantId,
          token: t.apiKey,
          headers,
          rawBody: JSON.stringify({ email, password: 'idempotent password' }),
        })
      ).status,
    ).toBe(201);
    const again = await call('POST', '/users', {
      tenant: t.tenantId,
      token: t.apiKey,
      headers,
      rawBody: `{ "password": "idempotent password",\n "email": "${email}" }`,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not apply to login: a replayed login request logs in again', async () => {
    const key = randomUUID();
    const first = await call('POST', '/auth/login', {
      tenant: t.tenantId,
      headers: { 'Idempotency-Key': key },
      body: { email: t.adminEmail, password: t.adminPassword },
    });
    const second = await call('POST', '/auth/login', {
      tenant: t.tenantId,
      headers: { 'Idempotency-Key': key },
      body: { email: t.adminEmail, password: t.adminPassword },
    });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.session_id).not.toBe(first.body.session_id);
  });

  it("binds a key to the path: the same key and body on another conversation is 422, not the first one's replay", async () => {
    const open = async (phone: string) =>
      (
        await call('POST', '/conversations', {
          tenant: t.tenantId,
          token: t.apiKey,
          body: { channel: 'sandbox', customer: { phone } },
        })
      ).body.id as string;
    const [c1, c2] = [await open('+491511009001'), await open('+491511009002')];
    const key = randomUUID();
    const send = (conversation: string) =>
      call('POST', `/conversations/${conversation}/messages`, {
        tenant: t.tenantId,
        token: t.apiKey,
        headers: { 'Idempotency-Key': key },
        body: { text: 'Your booking is confirmed.' },
      });
    const first = await send(c1);
    expect(first.status).toBe(202);
    const other = await send(c2);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.text).not.toContain(first.body.id);
    // c2 got no message and c1 exactly one; the first request still replays on its own path.
    const messages = async (c: string) =>
      (await call('GET', `/conversations/${c}/messages`, { tenant: t.tenantId, token: t.apiKey })).body.data as {
        id: string;
      }[];
    await settlesTo(async () => (await messages(c1)).map((m) => m.id), [first.body.id]);
    expect(await messages(c2)).toEqual([]);
    const replay = await send(c1);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    // Both path prefixes name the same request.
    const viaV1 = await call('POST', `/v1/conversations/${c1}/messages`, {
      tenant: t.tenantId,
      token: t.apiKey,
      headers: { 'Idempotency-Key': key },
      body: { text: 'Your booking is confirmed.' },
    });
    expect(viaV1.headers.get('idempotent-replayed')).toBe('true');
  });

  it("never hands one webhook's new secret to a rotation of another", async () => {
    const register = async () =>
      (
        await call('POST', '/webhooks', {
          tenant: t.tenantId,
          token: t.apiKey,
          body: { url: 'https://localhost:9443/hook', events: ['*'], is_active: false },
        })
      ).body.id as string;
    const [w1, w2] = [await register(), await register()];
    const key = randomUUID();
    const rotate = (id: string) =>
      call('POST', `/webhooks/${id}/rotate-secret`, {
        tenant: t.tenantId,
        token: t.apiKey,
        headers: { 'Idempotency-Key': key },
      });
    const first = await rotate(w1);
    expect(first.status).toBe(200);
    expect(first.body.id).toBe(w1);
    const second = await rotate(w2);
    expect(second.status).toBe(422);
    expect(second.body.code).toBe('idempotency_key_reused');
    expect(second.text).not.toContain(first.body.webhook_secret);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await createUser('x'.repeat(300), 'long@example.com');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_idempotency_key');
  });
});
