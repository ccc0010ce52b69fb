import { SignJWT } from 'jose';
import { call, createTenant, listEventually, login, type TestTenant } from '../support/api';
import { testRuntime } from '../support/runtime';

/** Tenant header, authentication and authorisation: 400 before 401 before 403. */
let a: TestTenant;
let b: TestTenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

const expectProblem = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body).toMatchObject({ status, code });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.request_id).toBeTruthy();
};

describe('X-Tenant-ID', () => {
  it('is required (400), even before credentials are looked at', async () => {
    expectProblem(await call('GET', '/api-keys'), 400, 'tenant_header_missing');
    expectProblem(await call('GET', '/api-keys', { token: a.apiKey }), 400, 'tenant_header_missing');
    expectProblem(await call('GET', '/api-keys', { token: 'garbage' }), 400, 'tenant_header_missing');
  });

  it('must be a UUID (400)', async () => {
    expectProblem(await call('GET', '/api-keys', { tenant: 'acme' }), 400, 'tenant_header_invalid');
    expectProblem(
      await call('GET', '/api-keys', { tenant: `${a.tenantId}x`, token: a.apiKey }),
      400,
      'tenant_header_invalid',
    );
  });
});

describe('401: missing, bad, expired or revoked credentials', () => {
  it('refuses a missing credential', async () => {
    const res = await call('GET', '/api-keys', { tenant: a.tenantId });
    expectProblem(res, 401, 'credentials_missing');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('says what is wrong with a malformed Authorization header', async () => {
    const withHeader = (authorization: string) =>
      call('GET', '/api-keys', { tenant: a.tenantId, headers: { Authorization: authorization } });
    const empty = await withHeader('Bearer ');
    expectProblem(empty, 401, 'credentials_missing');
    expect(empty.body.detail).toMatch(/no token after "Bearer"/);
    expect((await withHeader(`Basic ${a.apiKey}`)).body.detail).toMatch(/Bearer scheme/);
    expect((await withHeader(`Bearer ${a.apiKey} extra`)).body.detail).toMatch(/one token/);
    expect((await withHeader(`bearer   ${a.apiKey}`)).status).toBe(200);
    // The platform API names its own credential.
    const platform = await call('GET', '/platform/tenants');
    expectProblem(platform, 401, 'credentials_missing');
    expect(platform.body.detail).toMatch(/platform token/);
  });

  it('refuses a malformed API key and a well-formed unknown one', async () => {
    expectProblem(await call('GET', '/api-keys', { tenant: a.tenantId, token: 'sk_nope' }), 401, 'invalid_api_key');
    const flipped = a.apiKey.slice(0, -7) + (a.apiKey.at(-7) === 'A' ? 'B' : 'A') + a.apiKey.slice(-6);
    expectProblem(await call('GET', '/api-keys', { tenant: a.tenantId, token: flipped }), 401, 'invalid_api_key');
  });

  it('refuses a garbage token, an expired token and alg none', async () => {
    expectProblem(await call('GET', '/api-keys', { tenant: a.tenantId, token: 'not.a.jwt' }), 401, 'invalid_token');
    const secret = new TextEncoder().encode(testRuntime().jwtSecret);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ tid: a.tenantId, sid: 'ses_x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('messaging-platform')
      .setAudience('messaging-api')
      .setSubject(a.adminUserId)
      .setJti('j')
      .setIssuedAt(past - 1800)
      .setExpirationTime(past)
      .sign(secret);
    expectProblem(await call('GET', '/api-keys', { tenant: a.tenantId, token: expired }), 401, 'token_expired');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        tid: a.tenantId,
        sid: 's',
        sub: a.adminUserId,
        iss: 'messaging-platform',
        aud: 'messaging-api',
        jti: 'j',
        iat: past,
        exp: past + 99999,
      }),
    ).toString('base64url');
    expectProblem(
      await call('GET', '/api-keys', { tenant: a.tenantId, token: `${header}.${payload}.` }),
      401,
      'invalid_token',
    );
  });

  it('refuses a revoked API key at once', async () => {
    const created = await call('POST', '/api-keys', {
      tenant: a.tenantId,
      token: a.apiKey,
      body: { name: 'short-lived' },
    });
    expect(created.status).toBe(201);
    expect((await call('GET', '/auth/me', { tenant: a.tenantId, token: created.body.key })).status).toBe(200);
    expect((await call('DELETE', `/api-keys/${created.body.id}`, { tenant: a.tenantId, token: a.apiKey })).status).toBe(
      204,
    );
    expectProblem(
      await call('GET', '/auth/me', { tenant: a.tenantId, token: created.body.key }),
      401,
      'invalid_api_key',
    );
  });
});

describe('403: another tenant or an insufficient role', () => {
  it("refuses another tenant's API key without revealing the tenant", async () => {
    expectProblem(await call('GET', '/api-keys', { tenant: b.tenantId, token: a.apiKey }), 403, 'tenant_mismatch');
    // A tenant that does not exist looks the same as one that does.
    expectProblem(
      await call('GET', '/api-keys', { tenant: '00000000-0000-4000-8000-000000000000', token: a.apiKey }),
      403,
      'tenant_mismatch',
    );
  });

  it("refuses another tenant's access token", async () => {
    const session = await login(a);
    expectProblem(
      await call('GET', '/users', { tenant: b.tenantId, token: session.access_token }),
      403,
      'tenant_mismatch',
    );
  });

  it('refuses admin actions to agents, by key and by user', async () => {
    const agentKey = await call('POST', '/api-keys', {
      tenant: a.tenantId,
      token: a.apiKey,
      body: { name: 'agent key', role: 'agent' },
    });
    expectProblem(
      await call('POST', '/api-keys', { tenant: a.tenantId, token: agentKey.body.key, body: { name: 'x' } }),
      403,
      'insufficient_role',
    );
    expect((await call('GET', '/users', { tenant: a.tenantId, token: agentKey.body.key })).status).toBe(200);

    const email = `agent-${Date.now()}@example.com`;
    const agent = await call('POST', '/users', {
      tenant: a.tenantId,
      token: a.apiKey,
      body: { email, password: 'agent password 123', role: 'agent' },
    });
    expect(agent.status).toBe(201);
    const session = await login(a, email, 'agent password 123');
    expectProblem(
      await call('GET', '/api-keys', { tenant: a.tenantId, token: session.access_token }),
      403,
      'insufficient_role',
    );
    expectProblem(
      await call('PATCH', `/users/${a.adminUserId}`, {
        tenant: a.tenantId,
        token: session.access_token,
        body: { role: 'agent' },
      }),
      403,
      'insufficient_role',
    );
  });

  it("hides other tenants' users behind 404", async () => {
    expectProblem(
      await call('GET', `/users/${b.adminUserId}`, { tenant: a.tenantId, token: a.apiKey }),
      404,
      'not_found',
    );
    expectProblem(
      await call('PATCH', `/users/${b.adminUserId}`, { tenant: a.tenantId, token: a.apiKey, body: { name: 'pwned' } }),
      404,
      'not_found',
    );
    const bKeys = await listEventually(
      '/api-keys',
      { tenant: b.tenantId, token: b.apiKey },
      (body) => body.data.length > 0,
    );
    expectProblem(
      await call('DELETE', `/api-keys/${bKeys.body.data[0].id}`, { tenant: a.tenantId, token: a.apiKey }),
      404,
      'not_found',
    );
    expect((await call('GET', '/auth/me', { tenant: b.tenantId, token: b.apiKey })).status).toBe(200);
  });
});
