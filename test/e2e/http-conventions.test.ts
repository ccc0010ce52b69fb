import { connect } from 'node:net';
import { authOf, call, createTenant, fetchAsClient, listEventually, platform, type TestTenant } from '../support/api';
import { startReceiver } from '../support/receiver';
import { testRuntime } from '../support/runtime';

let t: TestTenant;
beforeAll(async () => {
  t = await createTenant();
});
const auth = () => ({ tenant: t.tenantId, token: t.apiKey });

describe('request bodies', () => {
  it('422 for control characters or lone surrogates in any text a person reads; tabs and line breaks are fine', async () => {
    const booking = (service: string) => ({
      customer: { phone: '+491517000001' },
      service,
      start_at: '2031-03-01T09:00:00Z',
      end_at: '2031-03-01T10:00:00Z',
      timezone: 'UTC',
    });
    const cases: [string, string, (text: string) => unknown, string][] = [
      ['POST', '/bookings', booking, 'service'],
      ['POST', '/webhooks', (d) => ({ url: 'https://localhost/cc', events: ['*'], description: d }), 'description'],
      ['POST', '/api-keys', (name) => ({ name }), 'name'],
      ['POST', '/channels/sandbox/inbound', (name) => ({ from: '+491517000002', name, text: 'hi' }), 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      for (const bad of ['a\u0000b', 'bell\u0007', 'broken \ud800'])
        expect(await call(method, path, { ...auth(), body: body(bad) })).toMatchObject({
          status: 422,
          body: { code: 'validation_failed', errors: [{ path: expect.stringContaining(field) }] },
        });
      expect((await call(method, path, { ...auth(), body: body('Line one\nline\ttwo 😀') })).status).toBe(201);
    }
  });

  it('413 above 256 KB', async () => {
    const res = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: JSON.stringify({ name: 'x'.repeat(257 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('body_too_large');
  });

  it('415 for a non-JSON body', async () => {
    const res = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    const noType = await call('POST', '/api-keys', { ...auth(), rawBody: '{"name":"x"}' });
    expect(noType.status).toBe(415);
  });

  it('415 for a compressed body, naming the coding; identity is plain', async () => {
    const gzip = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: '{"name":"compressed"}',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    });
    expect(gzip.status).toBe(415);
    expect(gzip.body.code).toBe('unsupported_media_type');
    expect(gzip.body.detail).toContain('Content-Encoding gzip');
    expect(gzip.headers.get('accept-encoding')).toBe('identity');
    const layered = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: '{"name":"compressed"}',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'Identity, GZIP' },
    });
    expect(layered.status).toBe(415);
    expect(layered.body.detail).toContain('Content-Encoding gzip');
    for (const coding of ['identity', ' identity , identity', 'identity,']) {
      const identity = await call('POST', '/api-keys', {
        ...auth(),
        rawBody: '{"name":"identity coded"}',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': coding },
      });
      expect(identity.status).toBe(201);
    }
  });

  it('400 for malformed JSON', async () => {
    const res = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('malformed_json');
  });

  it('422 with errors[] for invalid fields and unknown fields (no mass assignment)', async () => {
    const res = await call('POST', '/users', {
      ...auth(),
      body: { email: 'nope', password: 'short', id: 'usr_x', tenant_id: 'evil' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password']));
    expect(JSON.stringify(res.body.errors)).toMatch(/id|tenant_id/);
    expect(res.body.errors.every((e: { message: string }) => typeof e.message === 'string')).toBe(true);
  });

  it('accepts application/*+json and a charset parameter', async () => {
    const res = await call('POST', '/api-keys', {
      ...auth(),
      rawBody: '{"name":"charset"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });
});

describe('body encodings and bodiless actions', () => {
  // As a client would: a 503 with Retry-After (a write cancelled by a conflict or throttling, under the
  // chaos mode) is sent again.
  const post = (path: string, body: Buffer, contentType = 'application/json') =>
    fetchAsClient(`${testRuntime().url}/api/v1${path}`, () => ({
      method: 'POST',
      headers: { 'X-Tenant-ID': t.tenantId, Authorization: `Bearer ${t.apiKey}`, 'Content-Type': contentType },
      body: body,
    }));

  it('400 for bytes that are not UTF-8 (whatever the charset says) and for a byte-order mark: nothing is stored altered', async () => {
    const latin1 = Buffer.from('{"name":"caf\xe9"}', 'latin1');
    const notUtf8 = await post('/api-keys', latin1);
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.headers.get('content-type')).toBe('application/problem+json');
    expect(await notUtf8.json()).toMatchObject({ code: 'malformed_json', detail: expect.stringMatching(/UTF-8/) });
    const declared = await post('/api-keys', latin1, 'application/json; charset=latin1');
    expect(declared.status).toBe(400);
    const bom = await post('/api-keys', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"x"}')]));
    expect(bom.status).toBe(400);
    // The charset label has no effect on JSON (RFC 8259): ASCII bytes labelled otherwise are still JSON.
    const ascii = await post('/api-keys', Buffer.from('{"name":"ascii"}'), 'application/json; charset=us-ascii');
    expect(ascii.status).toBe(201);
    // Listed once the key made after them is (the list is eventually consistent), none of the refused ones is.
    const { id } = (await ascii.json()) as { id: string };
    const keys = await listEventually('/api-keys?limit=100', auth(), (body) => body.data.some((k: any) => k.id === id));
    expect(keys.body.data.filter((k: { name: string }) => k.name === 'x' || k.name.startsWith('caf'))).toEqual([]);
    const utf8 = await post('/api-keys', Buffer.from('{"name":"café"}'), 'application/json; charset="UTF-8"');
    expect(utf8.status).toBe(201);
    expect(await utf8.json()).toMatchObject({ name: 'café' });
  });

  it('422 for a body sent to an action or a DELETE that takes none; none or {} is fine', async () => {
    const receiver = await startReceiver();
    const hook = await call('POST', '/webhooks', { ...auth(), body: { url: receiver.url(), events: ['booking.*'] } });
    expect(hook.status).toBe(201);
    for (const body of [{ tenant_id: 'x' }, [], null, 'x', 1]) {
      const res = await call('POST', `/webhooks/${hook.body.id}/rotate-secret`, { ...auth(), body });
      expect(res).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    }
    const got = await call('GET', `/webhooks/${hook.body.id}`, auth());
    expect(got.body.version).toBe(hook.body.version);
    expect((await call('POST', `/webhooks/${hook.body.id}/rotate-secret`, { ...auth(), body: {} })).status).toBe(200);
    expect((await call('POST', `/webhooks/${hook.body.id}/rotate-secret`, auth())).status).toBe(200);
    // A DELETE takes none either (a booking's cancellation reason is a query parameter, not a body field).
    for (const body of [{ reason: 'in the body' }, 'x'])
      expect(await call('DELETE', `/webhooks/${hook.body.id}`, { ...auth(), body })).toMatchObject({
        status: 422,
        body: { code: 'validation_failed', errors: [{ path: '(root)' }] },
      });
    expect((await call('GET', `/webhooks/${hook.body.id}`, auth())).status).toBe(200);
    expect(
      (
        await call('DELETE', `/webhooks/${hook.body.id}`, {
          ...auth(),
          rawBody: '{ \n }',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(204);
    await receiver.close();
  });
});

describe('a PATCH that changes nothing', () => {
  it('answers the resource as it is, at the same version, for every versioned resource', async () => {
    const t = await createTenant();
    const hook = (
      await call('POST', '/webhooks', {
        ...authOf(t),
        body: { url: 'https://localhost/same', events: ['booking.*'], description: 'd' },
      })
    ).body;
    const same = [
      () => call('PATCH', `/webhooks/${hook.id}`, { ...authOf(t), body: { description: 'd', events: ['booking.*'] } }),
      () => call('PATCH', `/users/${t.adminUserId}`, { ...authOf(t), body: { role: 'admin' } }),
      () => platform('PATCH', `/tenants/${t.tenantId}`, { plan: 'pro' }),
    ];
    for (const patch of same) {
      const first = await patch();
      expect(first.status).toBe(200);
      const again = await patch();
      expect(again.status).toBe(200);
      expect(again.body.version).toBe(first.body.version);
      expect(again.headers.get('etag')).toBe(`"${first.body.version}"`);
    }
    expect(hook.version).toBe(1);
    expect((await call('GET', `/webhooks/${hook.id}`, authOf(t))).body).not.toHaveProperty('secrets');
    // With a stale If-Match, a change to nothing is still refused: the caller's copy is out of date.
    const stale = await call('PATCH', `/webhooks/${hook.id}`, {
      ...authOf(t),
      body: { description: 'd' },
      headers: { 'If-Match': '"7"' },
    });
    expect(stale).toMatchObject({ status: 412, body: { code: 'version_mismatch' } });
    // A real change still moves the version.
    const changed = await call('PATCH', `/webhooks/${hook.id}`, { ...authOf(t), body: { description: 'e' } });
    expect(changed.body.version).toBe(2);
    expect(changed.body).not.toHaveProperty('secrets');
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
    // Lookalikes of the API (another version, another case) are the API's 404 too, never the dashboard.
    for (const path of ['/api/v2/auth/me', '/API/V1/auth/me', '/api/nope', '/v2/auth/me']) {
      const res = await fetch(`${testRuntime().url}${path}`);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, 'application/problem+json']);
    }
    const wrong = await call('PUT', '/api-keys', auth());
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
  });

  it('answers gateway-level errors (404, 405, 413, 400, 431) in the shape and with the headers of every other problem', async () => {
    const base = `${testRuntime().url}/api/v1`;
    const cases = [
      {
        res: await fetch(`${base}/nope`, { headers: { Origin: 'https://app.example.com' } }),
        status: 404,
        title: 'Not Found',
        code: 'route_not_found',
      },
      {
        res: await fetch(`${base}/api-keys`, { method: 'PUT', headers: { Origin: 'https://app.example.com' } }),
        status: 405,
        title: 'Method Not Allowed',
        code: 'method_not_allowed',
      },
      {
        res: await fetch(`${base}/api-keys`, {
          method: 'POST',
          headers: { Origin: 'https://app.example.com', 'Content-Type': 'application/json' },
          body: 'x'.repeat(10 * 1024 * 1024 + 1),
        }),
        status: 413,
        title: 'Content Too Large',
        code: 'body_too_large',
      },
      {
        res: await fetch(`${base}/users/%zz`, { headers: { Origin: 'https://app.example.com' } }),
        status: 400,
        title: 'Bad Request',
        code: 'malformed_path',
      },
      {
        // Over API Gateway's 10,240 bytes of request line and headers: no handler runs.
        res: await fetch(`${base}/auth/me`, {
          headers: { Origin: 'https://app.example.com', 'X-Padding': 'x'.repeat(10_300) },
        }),
        status: 431,
        title: 'Request Header Fields Too Large',
        code: 'headers_too_large',
      },
    ];
    // A handler's own problem, for the headers every problem should share.
    const handlerProblem = await call('GET', '/auth/me', { headers: { Origin: 'https://app.example.com' } });
    expect(handlerProblem.status).toBe(400);
    const shared = [
      'x-content-type-options',
      'strict-transport-security',
      'referrer-policy',
      'access-control-allow-origin',
      'access-control-expose-headers',
    ];
    for (const { res, status, title, code } of cases) {
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(Object.keys(body).sort()).toEqual(Object.keys(handlerProblem.body).sort());
      // The same problem type as a handler's: this runtime's own problem docs page, anchored by the code.
      expect(body).toMatchObject({
        type: String(handlerProblem.body.type).replace(/#.*$/, `#${code}`),
        title,
        status,
        code,
      });
      expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-request-id')).toBe(body.request_id);
      for (const name of shared)
        expect([name, res.headers.get(name)]).toEqual([name, handlerProblem.headers.get(name)]);
    }
    expect(cases[1]?.res.headers.get('allow')).toBe('POST, GET');
  });

  it('answers bytes that are not HTTP with a 400 problem, and keeps serving', async () => {
    const { port } = new URL(testRuntime().url);
    const answer = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end('GET /api/v1/auth/me HTTP/1.1\r\nno colon here\r\n\r\n'),
      );
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toMatch(/^content-type: application\/problem\+json$/im);
    expect(JSON.parse(body)).toMatchObject({ status: 400, code: 'malformed_request' });
    expect((await call('GET', '/auth/me', auth())).status).toBe(200);
  });

  it('answers CORS preflight and exposes the useful headers', async () => {
    const res = await fetch(`${testRuntime().url}/api/v1/api-keys`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' },
    });
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

describe('nesting depth of JSON bodies', () => {
  const nested = (depth: number) => `{"email":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it('400 json_too_deep for a body nested deeper than 32 levels, with or without Idempotency-Key', async () => {
    const withKey: Record<string, string> = {
      'Content-Type': 'application/json',
      'Idempotency-Key': `deep-${Date.now()}`,
    };
    for (const headers of [withKey, { 'Content-Type': 'application/json' }]) {
      const res = await call('POST', '/users', { ...auth(), headers, rawBody: nested(5000) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('json_too_deep');
    }
    // Brackets inside strings are text, not nesting.
    const inString = await call('POST', '/users', {
      ...auth(),
      headers: { 'Content-Type': 'application/json' },
      rawBody: JSON.stringify({ email: '['.repeat(5000) }),
    });
    expect(inString.status).toBe(422);
  });

  it('parses a body exactly 32 levels deep (and the schema judges it)', async () => {
    const res = await call('POST', '/users', {
      ...auth(),
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `deep32-${Date.now()}` },
      rawBody: nested(32),
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(
      (
        await call('POST', '/users', {
          ...auth(),
          headers: { 'Content-Type': 'application/json' },
          rawBody: nested(33),
        })
      ).body.code,
    ).toBe('json_too_deep');
  });
});

describe('query strings', () => {
  it.each(['0x10', '-1', 'abc', '1e9', '1e1', '0', '101', '', ' 5', '5.0', '+5'])(
    '400 invalid_query for limit=%j',
    async (limit) => {
      const res = await call('GET', `/users?limit=${encodeURIComponent(limit)}`, auth());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_query');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['limit']);
    },
  );

  it('takes plain decimal limits from 1 to 100', async () => {
    for (const limit of ['1', '100', '7']) {
      const res = await call('GET', `/users?limit=${limit}`, auth());
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(Number(limit));
    }
    expect((await call('GET', '/users', auth())).body.pagination.limit).toBe(20);
  });

  it('400 naming the parameter on a route that takes no query parameters', async () => {
    for (const [method, path] of [
      ['GET', '/auth/me?verbose=1'],
      ['GET', '/channels?limit=5'],
      ['POST', '/api-keys?dry_run=true'],
    ] as const) {
      const res = await call(method, path, {
        ...auth(),
        body: method === 'POST' ? { name: 'never created' } : undefined,
      });
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'invalid_query']);
      expect(res.body.detail).toContain(path.split('?')[1]!.split('=')[0]);
    }
    expect(
      (await call('GET', '/api-keys', auth())).body.data.some((k: { name: string }) => k.name === 'never created'),
    ).toBe(false);
  });

  it('400 for an unknown parameter on routes with a query schema, the WhatsApp handshake included', async () => {
    expect((await call('GET', '/bookings?sort=asc', auth())).body.code).toBe('invalid_query');
    expect((await call('GET', '/events?typo=booking.created', auth())).body.code).toBe('invalid_query');
    const verify = await call(
      'GET',
      '/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=unknown-token&hub.challenge=1&extra=1',
    );
    expect(verify.status).toBe(400);
    expect(verify.body.code).toBe('invalid_query');
  });
});
