import { randomUUID } from 'node:crypto';
import { call, createTenant, type TestTenant } from '../support/api';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});

const createUser = (key: string, email: string) =>
  call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, headers: { 'Idempotency-Key': key }, body: { email, password: 'idempotent password' } });

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
    const again = await call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, body: { email, password: 'idempotent password' } });
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
    for (const c of conflicts) expect(c.body.code).toBe('idempotency_request_in_progress');
  });

  it('scopes keys by tenant', async () => {
    const other = await createTenant();
    const key = randomUUID();
    const email = `scoped-${key.slice(0, 8)}@example.com`;
    expect((await createUser(key, email)).status).toBe(201);
    const res = await call('POST', '/users', { tenant: other.tenantId, token: other.apiKey, headers: { 'Idempotency-Key': key }, body: { email, password: 'idempotent password' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('does not store errors: the key can be retried after a failure', async () => {
    const key = randomUUID();
    const bad = await call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, headers: { 'Idempotency-Key': key }, body: { email: 'not-an-email', password: 'idempotent password' } });
    expect(bad.status).toBe(422);
    const fixedBody = await call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, headers: { 'Idempotency-Key': key }, body: { email: `fixed-${key.slice(0, 8)}@example.com`, password: 'idempotent password' } });
    expect(fixedBody.status).toBe(201);
    expect(fixedBody.headers.get('idempotent-replayed')).toBeNull();
  });

  it('ignores key order and whitespace when comparing bodies', async () => {
    const key = randomUUID();
    const email = `order-${key.slice(0, 8)}@example.com`;
    const headers = { 'Idempotency-Key': key, 'Content-Type': 'application/json' };
    expect((await call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, headers, rawBody: JSON.stringify({ email, password: 'idempotent password' }) })).status).toBe(201);
    const again = await call('POST', '/users', { tenant: t.tenantId, token: t.apiKey, headers, rawBody: `{ "password": "idempotent password",\n "email": "${email}" }` });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not apply to login: a replayed login request logs in again', async () => {
    const key = randomUUID();
    const first = await call('POST', '/auth/login', { tenant: t.tenantId, headers: { 'Idempotency-Key': key }, body: { email: t.adminEmail, password: t.adminPassword } });
    const second = await call('POST', '/auth/login', { tenant: t.tenantId, headers: { 'Idempotency-Key': key }, body: { email: t.adminEmail, password: t.adminPassword } });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.session_id).not.toBe(first.body.session_id);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await createUser('x'.repeat(300), 'long@example.com');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_idempotency_key');
  });
});
