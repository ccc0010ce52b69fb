import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { methodsOf, ROUTES } from '../../catalog/routes';
import { problemType } from '../../functions/platform/errors';
import { problemsPage } from '../../functions/platform/problems-page';
import { contractViolations } from '../support/contract';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const spec = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
/**
 * The `$default` route's problems, which no operation answers (contract/openapi.ts, GATEWAY_PROBLEMS), and
 * the local gateway's answer for a handler past its timeout (API Gateway's own in AWS).
 */
const GATEWAY_CODES = [
  'gateway_timeout',
  'headers_too_large',
  'malformed_path',
  'malformed_request',
  'method_not_allowed',
  'route_not_found',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('contract.ts')
        ? [join(dir, e.name)]
        : [],
  );
}
const SOURCES = [...sourceFiles(join(ROOT, 'functions')), ...sourceFiles(join(ROOT, 'local'))].map((file) => ({
  file,
  text: readFileSync(file, 'utf8'),
}));

/**
 * Codes given to the problem constructors: badRequest('code', …), new ApiError(409, 'code', …),
 * DomainError.conflict('code', …), new DomainError('invalid', 'code', …) and the like.
 */
function codesInCode(): Set<string> {
  const patterns = [
    /\b(?:badRequest|unauthorized|forbidden|conflict|unprocessable|tooManyRequests|fieldProblem|DomainError\.\w+)\(\s*'([a-z][a-z0-9_]*)'/g,
    /\bnew ApiError\(\s*\d{3}\s*,\s*'([a-z][a-z0-9_]*)'/g,
    /\bnew DomainError\(\s*'[a-z_]+'\s*,\s*'([a-z][a-z0-9_]*)'/g,
  ];
  const codes = new Set<string>();
  for (const { text } of SOURCES)
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) codes.add(m[1] as string);
  // Helpers with a fixed code.
  const fixed: [RegExp, string][] = [
    [/\bnotFound\(/, 'not_found'],
    [/\b(?:preconditionFailed|versionMismatch)\(/, 'version_mismatch'],
    [/\bserviceUnavailable\(/, 'dependency_throttled'],
  ];
  for (const [helper, code] of fixed) if (SOURCES.some(({ text }) => helper.test(text))) codes.add(code);
  codes.add('internal_error');
  return codes;
}

/** Every problem code the document names, with the statuses it answers them with. */
function codesInSpec(): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  const visit = (responses: Record<string, any>) => {
    for (const [status, response] of Object.entries(responses)) {
      const resolved = response.$ref ? spec.components.responses[response.$ref.split('/').pop()] : response;
      const codes: string[] = resolved.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? [];
      for (const code of codes) found.set(code, (found.get(code) ?? new Set()).add(Number(status)));
    }
  };
  for (const item of Object.values<Record<string, any>>(spec.paths))
    for (const op of Object.values(item)) visit(op.responses);
  return found;
}

describe('openapi.json', () => {
  it('is what the code generates (run npm run openapi after changing a route, schema or contract)', () => {
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', '--check'], {
        cwd: ROOT,
        stdio: 'pipe',
      }),
    ).not.toThrow();
  }, 120_000);

  it('has one operation per route of catalog/routes.ts and method it answers, under /api/v1, and nothing else', () => {
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(ROUTES.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`)).sort());
    expect(operations).toContain('HEAD /openapi.json');
    expect(spec.servers.every((s: { url: string }) => s.url.endsWith('/api/v1'))).toBe(true);
    expect(spec.info.description).toContain('`/v1`');
  });

  it('has a webhooks entry for every event type, with its envelope', () => {
    expect(Object.keys(spec.webhooks).length).toBeGreaterThan(10);
    for (const [type, item] of Object.entries<any>(spec.webhooks)) {
      const ref: string = item.post.requestBody.content['application/json'].schema.$ref;
      const envelope = spec.components.schemas[ref.split('/').pop() as string];
      expect(envelope.properties.type.const).toBe(type);
      expect(envelope.required).toEqual(
        expect.arrayContaining(['id', 'type', 'created_at', 'tenant_id', 'api_version', 'data']),
      );
    }
  });

  it('documents If-Match on exactly the operations whose handler reads it', () => {
    const reading = ROUTES.filter((r) =>
      readFileSync(join(ROOT, 'functions', `${r.handler}.ts`), 'utf8').includes('ifMatchVersion('),
    ).map((r) => r.id);
    const documented = ROUTES.filter((r) =>
      (spec.paths[r.path][r.method.toLowerCase()].parameters ?? []).some(
        (p: { $ref?: string }) => p.$ref === '#/components/parameters/IfMatch',
      ),
    ).map((r) => r.id);
    expect(documented.sort()).toEqual(reading.sort());
  });

  it('declares whole-number query parameters as integers with their bounds', () => {
    const numeric = Object.values<Record<string, any>>(spec.paths)
      .flatMap((item) => Object.values<any>(item))
      .flatMap((op) => (op.parameters ?? []).filter((p: any) => p.in === 'query' && p.schema?.type === 'integer'));
    const byName = Object.fromEntries(numeric.map((p: any) => [p.name, p.schema]));
    expect(byName).toEqual({
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      duration_minutes: { type: 'integer', minimum: 5, maximum: 1440 },
      step_minutes: { type: 'integer', minimum: 5, maximum: 1440 },
    });
    // No query parameter is left as digits in a string.
    const digits = JSON.stringify(spec.paths).match(/"pattern":"\^\\\\d\{1,\d\}\$"/g);
    expect(digits).toBeNull();
  });

  it('declares the rate-limit headers on every answer to a counted request but a 401, required on 200s and 429s', () => {
    const resolve = (node: any, kind: string) => (node.$ref ? spec.components[kind][node.$ref.split('/').pop()] : node);
    for (const route of ROUTES.filter((r) => r.auth === 'tenant' && r.rateLimit !== false)) {
      const op = spec.paths[route.path][route.method.toLowerCase()];
      for (const [status, entry] of Object.entries<any>(op.responses)) {
        const declared = resolve(entry, 'responses').headers ?? {};
        const limit = declared['X-RateLimit-Limit'] && resolve(declared['X-RateLimit-Limit'], 'headers');
        if (status === '401') expect([route.id, status, limit]).toEqual([route.id, status, undefined]);
        else
          expect([route.id, status, limit?.required ?? false]).toEqual([
            route.id,
            status,
            Number(status) < 300 || status === '429',
          ]);
      }
    }
  });

  it('names every operation of the SDKs once, by resource and method, and marks the paginated lists', () => {
    // HEAD answers as GET does: the SDKs call the other methods.
    const operations = Object.values<Record<string, any>>(spec.paths).flatMap((item) =>
      Object.entries<any>(item)
        .filter(([method]) => method !== 'head')
        .map(([, op]) => op),
    );
    const named = operations.filter((op) => op['x-sdk-resource']);
    expect(
      operations
        .filter((op) => !op['x-sdk-resource'])
        .map((op) => op.operationId)
        .sort(),
    ).toEqual([
      'paymentCheckoutDecline',
      'paymentCheckoutPage',
      'paymentCheckoutPay',
      'receiveStripeWebhook',
      'receiveWhatsAppWebhook',
      'verifyWhatsAppWebhook',
    ]);
    const names = named.map((op) => `${op['x-sdk-resource']}.${op['x-sdk-method']}`);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['conversations.messages.send', 'webhooks.rotate_secret']));
    for (const op of named) {
      const takesCursor = (op.parameters ?? []).some((p: any) => p.name === 'cursor');
      expect([op.operationId, op['x-sdk-paginated'] === true]).toEqual([op.operationId, takesCursor]);
    }
    expect(
      named
        .filter((op) => op['x-sdk-core'])
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(['login', 'logout', 'refreshSession']);
  });

  it('names every problem code the code base can answer', () => {
    const documented = new Set([...codesInSpec().keys(), ...GATEWAY_CODES]);
    expect([...codesInCode()].filter((code) => !documented.has(code))).toEqual([]);
  });
});

describe('docs/problems.md', () => {
  const sections = [...readFileSync(join(ROOT, 'docs/problems.md'), 'utf8').matchAll(/^## (.+)$/gm)].map(
    (m) => m[1] as string,
  );

  it('has a section, anchored by the code, for every code of the document and of the code base, and no other', () => {
    const codes = new Set([...codesInSpec().keys(), ...GATEWAY_CODES, ...codesInCode()]);
    expect(sections.filter((s) => !/^[a-z][a-z0-9_]*$/.test(s))).toEqual([]);
    expect([...codes].filter((c) => !sections.includes(c)).sort()).toEqual([]);
    expect(sections.filter((s) => !codes.has(s))).toEqual([]);
    expect(new Set(sections).size).toBe(sections.length);
  });

  it('is where problem type URLs point: the page, at the code\u2019s anchor', () => {
    expect(problemType('rate_limited', '/docs/problems')).toBe('/docs/problems#rate_limited');
    expect(problemType('rate_limited', 'https://docs.example.com/problems')).toBe(
      'https://docs.example.com/problems#rate_limited',
    );
  });

  it('is served as a page with an anchor for every code', () => {
    const page = problemsPage(readFileSync(join(ROOT, 'docs/problems.md'), 'utf8'));
    for (const code of sections) expect(page).toContain(`<h2 id="${code}">`);
    expect(page).not.toMatch(/<script/);
  });
});

describe('contract checks of responses', () => {
  const headers = (extra: Record<string, string> = {}) =>
    new Headers({
      'Content-Type': 'application/json',
      'X-Request-Id': 'req-1',
      'RateLimit-Policy': '"hourly";q=100;w=3600',
      RateLimit: '"hourly";r=99;t=100',
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '99',
      'X-RateLimit-Reset': '1795302000',
      ETag: '"1"',
      ...extra,
    });
  const user = {
    id: 'usr_01JDQ8ZK3M4N5P6Q7R8S9T0V1W',
    tenant_id: '83c27e80-76f3-49ca-a17d-b8b1d6c80254',
    email: 'agent@acme.example',
    name: null,
    role: 'agent',
    status: 'active',
    created_at: '2026-11-21T22:22:45.841Z',
    updated_at: '2026-11-21T22:22:45.841Z',
    version: 1,
  };
  const get = (body: unknown, status = 200, h = headers()) =>
    contractViolations({
      method: 'GET',
      path: `/api/v1/users/${user.id}`,
      status,
      headers: h,
      body,
      text: JSON.stringify(body),
    });

  it('accepts a response that keeps the contract', () => {
    expect(get(user)).toEqual([]);
    expect(
      contractViolations({
        method: 'GET',
        path: `/v1/users/${user.id}?x=1`,
        status: 200,
        headers: headers(),
        body: user,
        text: '…',
      }),
    ).toEqual([]);
  });

  it('catches a wrong body: a missing field, a wrong type, an undocumented field', () => {
    const { email: _, ...missing } = user;
    expect(get(missing).join()).toMatch(/required property 'email'/);
    expect(get({ ...user, version: '1' }).join()).toMatch(/version must be integer/);
    expect(get({ ...user, password_hash: 'x' }).join()).toMatch(/additional properties: password_hash/);
  });

  it('catches an undocumented status, a missing required header, a wrong content type and an undocumented code', () => {
    expect(get(user, 418).join()).toMatch(/status 418 is not documented for getUser/);
    const withoutEtag = headers();
    withoutEtag.delete('ETag');
    expect(get(user, 200, withoutEtag).join()).toMatch(/required header ETag is missing/);
    expect(get(user, 200, headers({ 'Content-Type': 'text/plain' })).join()).toMatch(
      /content type text\/plain is not documented/,
    );
    const problem = {
      type: problemType('booking_conflict'),
      title: 'Conflict',
      status: 404,
      detail: 'x',
      code: 'booking_conflict',
      request_id: 'r',
    };
    expect(get(problem, 404, headers({ 'Content-Type': 'application/problem+json' })).join()).toMatch(
      /code must be equal to one of the allowed values/,
    );
  });

  it('catches a rate-limit header sent on a response that does not declare it, and accepts the declared ones', () => {
    const notFound = {
      type: problemType('not_found'),
      title: 'Not Found',
      status: 404,
      detail: 'x',
      code: 'not_found',
      request_id: 'r',
    };
    const problemHeaders = headers({ 'Content-Type': 'application/problem+json' });
    problemHeaders.delete('ETag');
    // A 404 after the request was counted carries the headers, and its contract entry declares them.
    expect(get(notFound, 404, problemHeaders)).toEqual([]);
    const openapi = (status: number) =>
      contractViolations({
        method: 'GET',
        path: '/api/v1/openapi.json',
        status,
        headers: headers(),
        body: spec,
        text: '…',
      });
    expect(openapi(200).join()).toMatch(/header x-ratelimit-limit is sent but not declared/);
  });

  it('checks paths without an operation against the $default route\u2019s problems', () => {
    const problem = {
      type: problemType('route_not_found'),
      title: 'Not Found',
      status: 404,
      detail: 'x',
      code: 'route_not_found',
      request_id: 'r',
    };
    const h = new Headers({ 'Content-Type': 'application/problem+json' });
    expect(
      contractViolations({ method: 'GET', path: '/api/v1/nope', status: 404, headers: h, body: problem, text: '' }),
    ).toEqual([]);
    expect(
      contractViolations({ method: 'GET', path: '/api/v1/nope', status: 200, headers: h, body: {}, text: '' }).join(),
    ).toMatch(/no operation matches/);
  });
});
