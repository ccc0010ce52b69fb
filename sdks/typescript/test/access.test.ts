// API keys, users, auth.me, the operator API (PlatformClient), and the error classes a caller meets.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  MessagingClient,
  NotFoundError,
  PermissionError,
  PlatformClient,
  PreconditionFailedError,
  ValidationError,
} from '../src/index.js';
import { baseUrl, newTenant, platformClient, type TestTenant } from './helpers.js';

let t: TestTenant;
before(async () => {
  t = await newTenant();
});

describe('auth.me', () => {
  it('names the API key, its role and tenant', async () => {
    const me = await t.client.auth.me();
    assert.equal(me.kind, 'api_key');
    assert.equal(me.role, 'admin');
    assert.equal(me.tenant.id, t.tenantId);
    assert.equal(me.tenant.plan, 'pro');
  });

  it('exposes the rate limit of the last response', async () => {
    await t.client.auth.me();
    assert.equal(t.client.rateLimit?.limit, 1000);
    assert.ok((t.client.rateLimit?.remaining ?? 0) > 0);
    assert.ok(t.client.rateLimit!.resetAt.getTime() > Date.now());
  });
});

describe('apiKeys', () => {
  it('create shows the key once; list shows the prefix; an agent key may not administer; revoke ends it', async () => {
    const created = await t.client.apiKeys.create({ name: 'Agent integration', role: 'agent' });
    assert.match(created.key, /^sk_/);
    assert.equal(created.role, 'agent');
    const listed = await t.client.apiKeys.list().toArray();
    const entry = listed.find((k) => k.id === created.id);
    assert.equal(entry?.prefix, created.key.slice(0, 11));
    assert.ok(entry && !('key' in entry));

    const agent = t.clientWith({ apiKey: created.key });
    assert.equal((await agent.auth.me()).role, 'agent');
    await assert.rejects(agent.apiKeys.list().page(), (e: unknown) => e instanceof PermissionError && e.code === 'insufficient_role' && e.status === 403);
    await assert.rejects(agent.webhooks.create({ url: 'https://example.com/hook', events: ['*'] }), PermissionError);

    await t.client.apiKeys.revoke(created.id);
    await assert.rejects(agent.auth.me(), (e: unknown) => e instanceof AuthenticationError && e.code === 'invalid_api_key');
    await assert.rejects(t.client.apiKeys.revoke(created.id), NotFoundError);
  });
});

describe('users', () => {
  it('create, get, list, update with If-Match', async () => {
    const email = `agent-${randomUUID().slice(0, 8)}@example.com`;
    const user = await t.client.users.create({ email, password: 'a long agent passphrase', name: 'Ada Agent' });
    assert.equal(user.role, 'agent');
    assert.equal(user.email, email);
    assert.deepEqual(await t.client.users.get(user.id), user);
    const all = await t.client.users.list().toArray();
    assert.deepEqual(new Set(all.map((u) => u.id)), new Set([user.id, t.adminUserId]));
    const renamed = await t.client.users.update(user.id, { name: 'Ada Lovelace' }, { ifMatch: user.version });
    assert.equal(renamed.name, 'Ada Lovelace');
    await assert.rejects(t.client.users.update(user.id, { role: 'admin' }, { ifMatch: user.version }), PreconditionFailedError);
    await assert.rejects(t.client.users.create({ email, password: 'a long agent passphrase' }), (e: unknown) => e instanceof ConflictError && e.code === 'email_taken');
    await assert.rejects(t.client.users.create({ email: 'x@example.com', password: 'short' }), (e: unknown) => e instanceof ValidationError && e.errors[0]?.path === 'password');
  });
});

describe('PlatformClient tenants', () => {
  it('create, get, list across pages, update with If-Match', async () => {
    const platform = platformClient();
    const created = await platform.tenants.create({ name: 'Acme Dental', plan: 'free', timezone: 'Europe/Berlin', admin: { email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: 'a long admin passphrase' } });
    assert.equal(created.tenant.rate_limit_per_hour, 100);
    assert.match(created.api_key.key, /^sk_/);
    const got = await platform.tenants.get(created.tenant.id);
    assert.deepEqual(got, created.tenant);

    const firstPage = await platform.tenants.list({ limit: 1 }).page();
    assert.equal(firstPage.data.length, 1);
    assert.equal(firstPage.hasMore, true);
    const found = await platform.tenants.list({ limit: 2 }).toArray();
    assert.ok(found.some((x) => x.id === created.tenant.id));

    const upgraded = await platform.tenants.update(created.tenant.id, { plan: 'pro', name: 'Acme Dental GmbH' }, { ifMatch: got.version });
    assert.equal(upgraded.plan, 'pro');
    assert.equal(upgraded.rate_limit_per_hour, 1000);
    await assert.rejects(platform.tenants.update(created.tenant.id, { plan: 'starter' }, { ifMatch: got.version }), PreconditionFailedError);
    const suspended = await platform.tenants.update(created.tenant.id, { status: 'suspended' });
    assert.equal(suspended.status, 'suspended');
    const suspendedClient = new MessagingClient({ apiKey: created.api_key.key, tenantId: created.tenant.id, baseUrl: baseUrl() });
    await assert.rejects(suspendedClient.auth.me(), (e: unknown) => e instanceof PermissionError && e.code === 'tenant_suspended');
  });

  it('a wrong platform token is an AuthenticationError', async () => {
    const wrong = new PlatformClient({ token: 'pt_wrong', baseUrl: baseUrl() });
    await assert.rejects(wrong.tenants.list().page(), AuthenticationError);
  });
});

describe('errors', () => {
  it('a wrong API key is an AuthenticationError, another tenant a PermissionError', async () => {
    await assert.rejects(t.clientWith({ apiKey: 'sk_wrong' }).auth.me(), (e: unknown) => e instanceof AuthenticationError && e.code === 'invalid_api_key');
    await assert.rejects(t.clientWith({ tenantId: randomUUID() }).auth.me(), (e: unknown) => e instanceof PermissionError && e.code === 'tenant_mismatch');
  });

  it('a malformed cursor or tenant id is a BadRequestError with the problem fields', async () => {
    await assert.rejects(t.client.conversations.list({ cursor: 'bogus' }).page(), (e: unknown) => {
      assert.ok(e instanceof BadRequestError);
      assert.equal(e.code, 'invalid_cursor');
      assert.match(e.type ?? '', /invalid_cursor$/);
      assert.equal(e.title, 'Bad Request');
      assert.match(e.requestId ?? '', /\S/);
      return true;
    });
    await assert.rejects(t.clientWith({ tenantId: 'not-a-uuid' }).auth.me(), (e: unknown) => e instanceof BadRequestError && e.code === 'tenant_header_invalid');
  });

  it('the low-level request method reaches any endpoint with the same credentials and errors', async () => {
    const me = await t.client.request<{ kind: string }>('GET', '/auth/me');
    assert.equal(me.kind, 'api_key');
    const page = await t.client.request<{ data: unknown[] }>('GET', '/events', { query: { limit: 1 } });
    assert.ok(Array.isArray(page.data));
    await assert.rejects(t.client.request('GET', '/nowhere'), (e: unknown) => e instanceof NotFoundError && e.code === 'route_not_found');
  });
});
