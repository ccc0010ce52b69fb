// Pure parts of the SDK: webhook verification edge cases (both crypto paths), backoff, URLs, headers,
// error classes, and the version.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  MessagingClient,
  MessagingError,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  RateLimitError,
  SDK_VERSION,
  ServerError,
  signWebhook,
  ValidationError,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';
import { errorFromResponse, parseRetryAfter } from '../src/core/errors.js';
import { apiBase, backoffDelay, etagOf, newIdempotencyKey } from '../src/core/http.js';
import { useWebCryptoForTests } from '../src/webhooks.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_01JDQ8ZK3M4N5P6Q7R8S9T0V1W', type: 'webhook.test', created_at: '2026-11-21T22:22:45.841Z', data: { message: 'hé ✓' } });

/** The API's own signing scheme (functions/webhooks/webhook.ts), written out independently. */
function apiSignature(secrets: string[], id: string, timestamp: number, payload: string): string {
  return secrets
    .map((s) => `v1,${createHmac('sha256', Buffer.from(s.slice(6), 'base64')).update(`${id}.${timestamp}.${payload}`).digest('base64')}`)
    .join(' ');
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const headersFor = (secrets: string[], timestamp = nowSeconds(), id = 'evt_01JDQ8ZK3M4N5P6Q7R8S9T0V1W') => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': apiSignature(secrets, id, timestamp, body),
});

async function rejects(promise: Promise<unknown>, reason: WebhookVerificationError['reason']) {
  await assert.rejects(promise, (error: unknown) => error instanceof WebhookVerificationError && error.reason === reason);
}

for (const path of ['node:crypto', 'Web Crypto'] as const) {
  describe(`verifyWebhook (${path})`, () => {
    const run = async (fn: () => Promise<void>) => {
      useWebCryptoForTests(path === 'Web Crypto');
      try {
        await fn();
      } finally {
        useWebCryptoForTests(false);
      }
    };

    it('returns the parsed event for a valid signature, from a string, a Buffer or an ArrayBuffer', () =>
      run(async () => {
        const headers = headersFor([secret]);
        const event = await verifyWebhook(body, headers, secret);
        assert.equal(event.type, 'webhook.test');
        assert.deepEqual(await verifyWebhook(Buffer.from(body), headers, secret), JSON.parse(body));
        const bytes = new TextEncoder().encode(body);
        assert.deepEqual(await verifyWebhook(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), headers, secret), JSON.parse(body));
      }));

    it('reads headers case-insensitively, from a plain object or a fetch Headers', () =>
      run(async () => {
        const h = headersFor([secret]);
        const upper = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
        await verifyWebhook(body, upper, secret);
        await verifyWebhook(body, new Headers(h), secret);
      }));

    it('accepts any of several signatures (rotation), with either secret', () =>
      run(async () => {
        const headers = headersFor([otherSecret, secret]);
        await verifyWebhook(body, headers, secret);
        await verifyWebhook(body, headers, otherSecret);
        await verifyWebhook(body, headersFor([secret]), [otherSecret, secret]);
      }));

    it('rejects a wrong secret, a changed body, a changed id or timestamp, and unknown signature versions', () =>
      run(async () => {
        const now = nowSeconds();
        const headers = headersFor([secret]);
        await rejects(verifyWebhook(body, headers, otherSecret), 'invalid_signature');
        await rejects(verifyWebhook(body.replace('test', 'tesT'), headers, secret), 'invalid_signature');
        await rejects(verifyWebhook(body, { ...headers, 'webhook-id': 'evt_other' }, secret), 'invalid_signature');
        await rejects(verifyWebhook(body, { ...headers, 'webhook-timestamp': String(now - 1) }, secret), 'invalid_signature');
        await rejects(verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret), 'invalid_signature');
        await rejects(verifyWebhook(body, { ...headers, 'webhook-signature': 'v1,not*base64' }, secret), 'invalid_signature');
        await rejects(verifyWebhook(body, { ...headers, 'webhook-signature': 'v1,' }, secret), 'invalid_signature');
      }));

    it('rejects stale and future timestamps beyond the tolerance, and accepts them within it', () =>
      run(async () => {
        const now = nowSeconds();
        await rejects(verifyWebhook(body, headersFor([secret], now - 400), secret), 'timestamp_too_old');
        await rejects(verifyWebhook(body, headersFor([secret], now + 400), secret), 'timestamp_in_future');
        await verifyWebhook(body, headersFor([secret], now - 200), secret);
        await verifyWebhook(body, headersFor([secret], now - 3000), secret, { toleranceSeconds: 3600 });
        await rejects(verifyWebhook(body, headersFor([secret], now - 11), secret, { toleranceSeconds: 10 }), 'timestamp_too_old');
        await verifyWebhook(body, headersFor([secret], 1_000_000), secret, { now: 1_000_000_000 + 5_000 });
        await rejects(verifyWebhook(body, { ...headersFor([secret]), 'webhook-timestamp': '12abc' }, secret), 'invalid_timestamp');
      }));

    it('rejects missing headers, a bad secret and a body that is not JSON', () =>
      run(async () => {
        const now = nowSeconds();
        const { 'webhook-signature': _, ...noSignature } = headersFor([secret]);
        await rejects(verifyWebhook(body, noSignature, secret), 'missing_headers');
        await rejects(verifyWebhook(body, headersFor([secret]), 'whsec_'), 'invalid_secret');
        await rejects(verifyWebhook(body, headersFor([secret]), ''), 'invalid_secret');
        const text = 'not json';
        const signed = { 'webhook-id': 'x', 'webhook-timestamp': String(now), 'webhook-signature': apiSignature([secret], 'x', now, text) };
        await rejects(verifyWebhook(text, signed, secret), 'invalid_payload');
      }));

    it('signWebhook makes headers that verifyWebhook (and the API scheme) agree with', () =>
      run(async () => {
        const now = nowSeconds();
        const headers = await signWebhook(body, secret, { id: 'evt_1', timestamp: now });
        assert.equal(headers['webhook-signature'], apiSignature([secret], 'evt_1', now, body));
        await verifyWebhook(body, headers, secret);
      }));
  });
}

describe('transport helpers', () => {
  it('backs off exponentially with jitter, capped at 8 s', () => {
    assert.equal(backoffDelay(0, () => 0), 250);
    assert.equal(backoffDelay(0, () => 1), 500);
    assert.equal(backoffDelay(1, () => 1), 1000);
    assert.equal(backoffDelay(3, () => 1), 4000);
    assert.equal(backoffDelay(10, () => 1), 8000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(2);
      assert.ok(d >= 1000 && d <= 2000);
    }
  });

  it('adds /api/v1 to the base URL unless a version is there', () => {
    assert.equal(apiBase('http://127.0.0.1:3000'), 'http://127.0.0.1:3000/api/v1');
    assert.equal(apiBase('http://127.0.0.1:3000/'), 'http://127.0.0.1:3000/api/v1');
    assert.equal(apiBase('https://api.example.com/api/v1/'), 'https://api.example.com/api/v1');
    assert.equal(apiBase('https://api.example.com/v1'), 'https://api.example.com/v1');
    assert.equal(apiBase('https://example.com/messaging'), 'https://example.com/messaging/api/v1');
    assert.throws(() => apiBase('api.example.com'), /absolute URL/);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('7'), 7);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000), 30);
  });

  it('quotes versions as ETags for If-Match', () => {
    assert.equal(etagOf(3), '"3"');
    assert.equal(etagOf('3'), '"3"');
    assert.equal(etagOf('"3"'), '"3"');
    assert.equal(etagOf('W/"3"'), 'W/"3"');
  });

  it('makes distinct UUID idempotency keys', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    assert.equal(keys.size, 100);
    for (const key of keys) assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('maps statuses to error classes with the problem fields', () => {
    const headers = new Headers({ 'retry-after': '12', 'x-request-id': 'req-1' });
    const problem = { type: 'https://docs.messaging.dev/problems/x', title: 'T', status: 0, detail: 'D', code: 'x', request_id: 'req-2', errors: [{ path: 'a', message: 'b' }] };
    const cases: [number, new (...a: never[]) => ApiError][] = [
      [400, BadRequestError], [401, AuthenticationError], [403, PermissionError], [404, NotFoundError], [409, ConflictError],
      [412, PreconditionFailedError], [422, ValidationError], [429, RateLimitError], [500, ServerError], [503, ServerError], [418, ApiError],
    ];
    for (const [status, cls] of cases) {
      const error = errorFromResponse(status, problem, headers);
      assert.ok(error instanceof cls && error instanceof ApiError, `${status}`);
      assert.equal(error.status, status);
      assert.equal(error.code, 'x');
      assert.equal(error.detail, 'D');
      assert.equal(error.requestId, 'req-2');
      assert.deepEqual(error.errors, [{ path: 'a', message: 'b' }]);
      assert.equal(error.name, cls.name);
    }
    assert.equal((errorFromResponse(429, problem, headers) as RateLimitError).retryAfter, 12);
    const bare = errorFromResponse(502, {}, new Headers({ 'x-request-id': 'req-3' }));
    assert.equal(bare.code, 'http_502');
    assert.equal(bare.requestId, 'req-3');
    assert.deepEqual(bare.errors, []);
  });

  it('checks its options', () => {
    assert.throws(() => new MessagingClient({ apiKey: '', tenantId: 't', baseUrl: 'http://x' }), /apiKey is required/);
    assert.throws(() => new MessagingClient({ apiKey: 'sk_x', tenantId: '', baseUrl: 'http://x' }), /tenantId is required/);
    assert.throws(() => new MessagingClient({ apiKey: 'sk_x', tenantId: 't', baseUrl: 'http://x', maxRetries: -1 }), /maxRetries/);
  });

  it('refuses an empty id before any request (the path would name the list)', async () => {
    const client = new MessagingClient({ apiKey: 'sk_x', tenantId: 't', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    await assert.rejects(client.conversations.get(''), (e: unknown) => e instanceof MessagingError && /id must be a non-empty string/.test(e.message));
    await assert.rejects(client.webhooks.delete(''), MessagingError);
    await assert.rejects(client.schedules.update('', { timezone: 'Europe/Berlin' }), MessagingError);
  });

  it('reports the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(SDK_VERSION, pkg.version);
  });
});
