// Session mode: login, refresh before expiry, one refresh after a 401, one refresh shared by concurrent
// requests (a second refresh with the same token would revoke the session), saved sessions, logout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthenticationError, BadRequestError, MessagingClient, MessagingError, type Tokens } from '../src/index.js';
import { baseUrl, newTenant, startProxy, type TestTenant } from './helpers.js';

let t: TestTenant;
let proxy: Awaited<ReturnType<typeof startProxy>>;
before(async () => {
  t = await newTenant();
  proxy = await startProxy();
});
after(() => proxy.close());

/** A fresh login's tokens, straight from the runtime. */
const freshTokens = async (): Promise<Tokens> => {
  const client = await MessagingClient.login({ email: t.adminEmail, password: t.adminPassword, baseUrl: baseUrl() });
  return client.tokens!;
};
/** The access token with its signature broken: the API answers 401 invalid_token. */
const broken = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
const refreshes = async () => (await proxy.to('POST', '/auth/refresh')).length;

describe('session mode', () => {
  it('login (without and with a tenant id) gives a user session; onSessionChange hears it', async () => {
    const heard: (Tokens | null)[] = [];
    const client = await MessagingClient.login({ email: t.adminEmail, password: t.adminPassword, baseUrl: baseUrl(), onSessionChange: (tokens) => void heard.push(tokens) });
    const me = await client.auth.me();
    assert.equal(me.kind, 'user');
    assert.equal(me.role, 'admin');
    assert.equal(me.tenant.id, t.tenantId);
    assert.equal(heard.length, 1);
    assert.equal(heard[0]?.access_token, client.tokens?.access_token);
    assert.equal(client.tokens?.user.email, t.adminEmail);

    const scoped = await MessagingClient.login({ email: t.adminEmail, password: t.adminPassword, tenantId: t.tenantId, baseUrl: baseUrl() });
    assert.equal((await scoped.auth.me()).kind, 'user');
    // Session clients reach every resource.
    assert.ok(Array.isArray((await scoped.conversations.list().page()).data));
  });

  it('a wrong password is an AuthenticationError', async () => {
    await assert.rejects(
      MessagingClient.login({ email: t.adminEmail, password: 'not the password', baseUrl: baseUrl() }),
      (e: unknown) => e instanceof AuthenticationError && e.code === 'invalid_credentials',
    );
  });

  it('refreshes before the access token expires', async () => {
    const tokens = await freshTokens();
    const heard: (Tokens | null)[] = [];
    await proxy.reset();
    const client = MessagingClient.fromSession({ ...tokens, expires_at: new Date(Date.now() + 30_000).toISOString() }, { baseUrl: proxy.url, onSessionChange: (x) => void heard.push(x) });
    assert.equal((await client.auth.me()).kind, 'user');
    assert.deepEqual((await proxy.seen()).map((s) => `${s.method} ${s.path.replace('/api/v1', '')}`), ['POST /auth/refresh', 'GET /auth/me']);
    assert.equal((await proxy.seen())[0]?.headers['idempotency-key'], undefined);
    assert.notEqual(client.tokens?.access_token, tokens.access_token);
    assert.notEqual(client.tokens?.refresh_token, tokens.refresh_token);
    assert.deepEqual(heard, [client.tokens]);
    // The new token is good for 30 minutes: no more refreshes.
    await client.auth.me();
    assert.equal(await refreshes(), 1);
  });

  it('refreshes once after a 401 and repeats the request', async () => {
    const tokens = await freshTokens();
    await proxy.reset();
    const client = MessagingClient.fromSession({ ...tokens, access_token: broken(tokens.access_token) }, { baseUrl: proxy.url });
    assert.equal((await client.auth.me()).kind, 'user');
    assert.deepEqual(
      (await proxy.seen()).map((s) => `${s.method} ${s.path.replace('/api/v1', '')} ${s.status}`),
      ['GET /auth/me 401', 'POST /auth/refresh 200', 'GET /auth/me 200'],
    );
  });

  it('concurrent requests share one refresh, and the session survives it', async () => {
    const tokens = await freshTokens();
    await proxy.reset();
    const expiring = MessagingClient.fromSession({ ...tokens, expires_at: new Date(Date.now() - 1000).toISOString() }, { baseUrl: proxy.url });
    const results = await Promise.all(Array.from({ length: 6 }, () => expiring.auth.me()));
    assert.ok(results.every((me) => me.kind === 'user'));
    assert.equal(await refreshes(), 1);

    const again = await freshTokens();
    await proxy.reset();
    const rejected = MessagingClient.fromSession({ ...again, access_token: broken(again.access_token) }, { baseUrl: proxy.url });
    const all = await Promise.all(Array.from({ length: 6 }, () => rejected.conversations.list().page()));
    assert.equal(all.length, 6);
    assert.equal(await refreshes(), 1);
    // A refresh token presented twice would have revoked the session; it is alive.
    assert.equal((await rejected.auth.me()).kind, 'user');
    await rejected.auth.refresh();
    assert.equal((await rejected.auth.me()).kind, 'user');
  });

  it('logout ends the session: the client forgets it and the old tokens stop working', async () => {
    const heard: (Tokens | null)[] = [];
    const client = await MessagingClient.login({ email: t.adminEmail, password: t.adminPassword, baseUrl: baseUrl(), onSessionChange: (x) => void heard.push(x) });
    const tokens = client.tokens!;
    await client.logout();
    assert.equal(client.tokens, null);
    assert.equal(heard.at(-1), null);
    await assert.rejects(client.auth.me(), (e: unknown) => e instanceof MessagingError && /logged out/.test(e.message));

    await proxy.reset();
    const revived = MessagingClient.fromSession(tokens, { baseUrl: proxy.url });
    await assert.rejects(revived.auth.me(), (e: unknown) => e instanceof AuthenticationError && e.code === 'session_revoked');
    // One refresh was tried (and refused), not more.
    assert.equal(await refreshes(), 1);
    // Logging out a session the API already ended still clears it.
    await revived.logout();
    assert.equal(revived.tokens, null);
  });

  it('an API key cannot log out or refresh', async () => {
    await assert.rejects(t.client.logout(), (e: unknown) => e instanceof BadRequestError && e.code === 'not_a_session');
    assert.throws(() => t.client.auth.refresh(), /login session/);
    assert.equal(t.client.tokens, undefined);
  });

  it('fromSession checks what it is given', () => {
    assert.throws(() => MessagingClient.fromSession({} as Tokens, { baseUrl: baseUrl() }), /fromSession needs/);
  });
});
