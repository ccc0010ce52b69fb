import { call, createTenant, type TestTenant } from '../support/api';
import { testRuntime } from '../support/runtime';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const auth = () => ({ tenant: t.tenantId, token: t.apiKey });

describe('request bodies', () => {
  it('413 above 256 KB', async () => {
    const res = await call('POST', '/api-keys', { ...auth(), rawBody: JSON.stringify({ name: 'x'.repeat(257 * 1024) }), headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('body_too_large');
  });

  it('415 for a non-JSON body', async () => {
    const res = await call('POST', '/api-keys', { ...auth(), rawBody: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    const noType = await call('POST', '/api-keys', { ...auth(), rawBody: '{"name":"x"}' });
    expect(noType.status).toBe(415);
  });

  it('400 for malformed JSON', async () => {
    const res = await call('POST', '/api-keys', { ...auth(), rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('malformed_json');
  });

  it('422 with errors[] for invalid fields and unknown fields (no mass assignment)', async () => {
    const res = await call('POST', '/users', { ...auth(), body: { email: 'nope', password: 'short', id: 'usr_x', tenant_id: 'evil' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password']));
    expect(JSON.stringify(res.body.errors)).toMatch(/id|tenant_id/);
    expect(res.body.errors.every((e: { message: string }) => typeof e.message === 'string')).toBe(true);
  });

  it('accepts application/*+json and a charset parameter', async () => {
    const res = await call('POST', '/api-keys', { ...auth(), rawBody: '{"name":"charset"}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(201);
  });
});

describe('routing, prefixes and headers', () => {
  it('serves both /api/v1 and /v1', async () => {
    expect((await call('GET', '/auth/me', auth())).status).toBe(200);
    expect((await call('GET', '/v1/auth/me', auth())).status).toBe(200);
  });

  it('404 problem for an unknown route, 405 for a wrong method', async () => {
    const unknown = await call('GET', '/nope', auth());
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    const wrong = await call('PUT', '/api-keys', auth());
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('answers CORS preflight and exposes the useful headers', async () => {
    const res = await fetch(`${testRuntime().url}/api/v1/api-keys`, { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Tenant-ID');
    const get = await call('GET', '/auth/me', { ...auth(), headers: { Origin: 'https://app.example.com' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('sets security headers and a request id, and leaks no internals', async () => {
    const res = await call('GET', '/auth/me', auth());
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-powered-by')).toBeNull();
    const bad = await call('GET', '/users?limit=500', auth());
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_query');
    expect(bad.text).not.toMatch(/at .*\.ts|node_modules|dynamodb|TENANT#/i);
  });
});
