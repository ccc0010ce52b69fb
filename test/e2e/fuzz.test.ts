import fc from 'fast-check';
import { ROUTES } from '../../catalog/routes';
import { createTenant, fetchAsClient, type TestTenant } from '../support/api';
import { contractViolations } from '../support/contract';
import { testRuntime } from '../support/runtime';

/**
 * Property: whatever headers and bodies are thrown at any route, the API answers with a 2xx, 3xx or a
 * problem+json 4xx, never a 5xx, and always one that openapi.json documents for that operation. Credentials
 * are sometimes valid, so the handlers themselves run too.
 */
let t: TestTenant;
beforeAll(async () => {
  t = await createTenant('enterprise', { rate_limit_per_hour: 1_000_000 });
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  jsonValue.map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string()),
        password: fc.string({ maxLength: 40 }),
        name: fc.string(),
        role: fc.string(),
        plan: fc.string(),
        status: fc.string(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const tenantArb = () =>
  fc.oneof(
    { arbitrary: fc.constant(t.tenantId), weight: 4 },
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.constant(undefined),
  );
const tokenArb = () =>
  fc.oneof(
    { arbitrary: fc.constant(`Bearer ${t.apiKey}`), weight: 4 },
    fc.constant(`Bearer ${testRuntime().platformToken}`),
    fc.string({ maxLength: 80 }),
    fc.constant('Bearer sk_'),
    fc.constant(undefined),
  );
const contentTypeArb = fc.oneof(
  fc.constant('application/json'),
  fc.constant('text/plain'),
  fc.string({ maxLength: 30 }),
  fc.constant(undefined),
);
const segmentArb = fc.oneof(
  fc.constant('usr_01ARZ3NDEKTSV4RRFFQ69G5FAV'),
  fc.constant('key_01ARZ3NDEKTSV4RRFFQ69G5FAV'),
  fc.uuid(),
  fc.webSegment(),
  fc.constant('%00'),
  fc.constant('%E0%A4%A'),
);
const queryArb = fc.oneof(
  fc.constant(''),
  fc.constant('?limit=0'),
  fc.constant('?limit=abc'),
  fc.constant('?cursor=zzz'),
  fc.webQueryParameters().map((q) => `?${q}`),
);

const headerSafe = (value: string | undefined) =>
  value === undefined ? undefined : value.replace(/[^\x20-\x7e]/g, '');

it('never answers 5xx to random requests on any route', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ROUTES),
      segmentArb,
      queryArb,
      tenantArb(),
      tokenArb(),
      contentTypeArb,
      bodyArb,
      fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      async (route, segment, query, tenant, authorization, contentType, body, idempotencyKey, ifMatch) => {
        // A `.` or `..` segment (or `%2e`) is resolved away by the URL, leaving another route's path: one more
        // character keeps it an id.
        const path = route.path.replace('{id}', /^(\.|%2e){1,2}$/i.test(segment) ? `${segment}-` : segment);
        const headers: Record<string, string> = {};
        const set = (k: string, v: string | undefined) => {
          const safe = headerSafe(v);
          if (safe !== undefined) headers[k] = safe;
        };
        set('X-Tenant-ID', tenant);
        set('Authorization', authorization);
        set('Content-Type', contentType);
        set('Idempotency-Key', idempotencyKey);
        set('If-Match', ifMatch);
        // As a client would: a 503 with Retry-After (DynamoDB throttling, under the chaos mode) is sent again.
        const res = await fetchAsClient(`${testRuntime().url}/api/v1${path}${query}`, () => ({
          method: route.method,
          headers,
          body: route.method === 'GET' ? undefined : body,
        }));
        const text = await res.text();
        if (res.status >= 500) throw new Error(`${route.method} ${path}${query} -> ${res.status}: ${text}`);
        if (res.status >= 400) expect(res.headers.get('content-type')).toBe('application/problem+json');
        // And every answer, whatever was sent, is one the contract documents for that operation.
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // kept as text
        }
        const violations = contractViolations({
          method: route.method,
          path: `/api/v1${path}${query}`,
          status: res.status,
          headers: res.headers,
          body: parsed,
          text,
        });
        if (violations.length) throw new Error(violations.join('\n'));
      },
    ),
    { numRuns: 300 },
  );
});
