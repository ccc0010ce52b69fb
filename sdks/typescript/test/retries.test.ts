// Retries: backoff on 429, 503 and other 5xx honouring Retry-After, timeouts and network errors, never on
// other 4xx; a free-plan tenant's real hourly limit. Faults are injected by a proxy in front of the runtime.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  ApiError,
  ConflictError,
  ConnectionError,
  MessagingClient,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../src/index.js';
import { awayFromWindowBoundary, newTenant, startProxy, timed, type TestTenant } from './helpers.js';

let t: TestTenant;
let proxy: Awaited<ReturnType<typeof startProxy>>;
before(async () => {
  t = await newTenant();
  proxy = await startProxy();
});
after(() => proxy.close());

const problem = (status: number, code: string) => ({ type: `https://docs.messaging.dev/problems/${code}`, title: 'x', status, detail: `injected ${code}`, code, request_id: 'req-injected' });
/** Answers the first `n` requests with `status`, then forwards. */
const failFirst = (n: number, status: number, headers: Record<string, string> = {}, code = 'injected') =>
  proxy.setDecide((_, i) => (i < n ? { kind: 'respond', status, headers, body: problem(status, code) } : { kind: 'forward' }));
const client = (options: Partial<ConstructorParameters<typeof MessagingClient>[0]> = {}) => t.clientWith({ baseUrl: proxy.url, ...options });
const reset = () => proxy.reset();

describe('retries', () => {
  it('429 with Retry-After: waits that long, then succeeds', async () => {
    await reset();
    await failFirst(1, 429, { 'Retry-After': '1' }, 'rate_limited');
    const { ms, value, error } = await timed(() => client().auth.me());
    assert.equal(error, undefined);
    assert.equal(value?.kind, 'api_key');
    assert.equal((await proxy.seen()).length, 2);
    assert.ok(ms >= 1000, `waited ${ms} ms`);
  });

  it('503 with Retry-After and 500s without: retried with backoff up to maxRetries', async () => {
    await reset();
    await failFirst(1, 503, { 'Retry-After': '1' }, 'dependency_throttled');
    assert.equal((await client().auth.me()).kind, 'api_key');
    assert.equal((await proxy.seen()).length, 2);

    await reset();
    await failFirst(2, 500, {}, 'internal_error');
    const { ms, value } = await timed(() => client({ maxRetries: 2 }).auth.me());
    assert.equal(value?.kind, 'api_key');
    assert.equal((await proxy.seen()).length, 3);
    // Backoff: 0.25-0.5 s, then 0.5-1 s.
    assert.ok(ms >= 750, `waited ${ms} ms`);
  });

  it('gives up after maxRetries with the last error, keeping its problem fields', async () => {
    await reset();
    await failFirst(100, 502);
    await assert.rejects(client({ maxRetries: 1 }).auth.me(), (e: unknown) => e instanceof ServerError && e.status === 502 && e.requestId === 'req-injected');
    assert.equal((await proxy.seen()).length, 2);

    await reset();
    await proxy.setDecide(() => ({ kind: 'respond', status: 504, headers: { 'Content-Type': 'text/html' } }));
    await assert.rejects(client({ maxRetries: 0 }).auth.me(), (e: unknown) => e instanceof ServerError && e.code === 'http_504');
    assert.equal((await proxy.seen()).length, 1);
  });

  it('never retries other 4xx', async () => {
    for (const [status, cls] of [[400, ApiError], [404, NotFoundError], [409, ConflictError], [422, ValidationError]] as const) {
      await reset();
      await failFirst(1, status);
      await assert.rejects(client({ maxRetries: 3 }).bookings.get('bkg_01JDQ8ZK3M4N5P6Q7R8S9T0V1W'), cls);
      assert.equal((await proxy.seen()).length, 1, `status ${status}`);
    }
  });

  it('a Retry-After longer than maxRetryDelay is not waited out', async () => {
    await reset();
    await failFirst(1, 429, { 'Retry-After': '3000' }, 'rate_limited');
    const { ms, error } = await timed(() => client({ maxRetries: 3 }).auth.me());
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.retryAfter, 3000);
    assert.equal((await proxy.seen()).length, 1);
    assert.ok(ms < 1000, `took ${ms} ms`);
  });

  it('times out slow attempts and retries them', async () => {
    await reset();
    // The timeout leaves the forwarded attempt ample time even on a busy machine; the held one never answers in it.
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'delay', ms: 5000 } : { kind: 'forward' }));
    assert.equal((await client({ timeout: 1500 }).auth.me()).kind, 'api_key');
    assert.equal((await proxy.seen()).length, 2);

    await reset();
    await proxy.setDecide(() => ({ kind: 'delay', ms: 1500 }));
    const { error } = await timed(() => client({ timeout: 300, maxRetries: 1 }).auth.me());
    assert.ok(error instanceof TimeoutError, String(error));
    assert.ok(error instanceof ConnectionError);
    assert.equal((await proxy.seen()).length, 2);
    const perCall = await timed(() => client({ maxRetries: 0 }).auth.me({ timeout: 200 }));
    assert.ok(perCall.error instanceof TimeoutError);
  });

  it('network errors are ConnectionErrors after the retries', async () => {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((ok) => server.close(() => ok()));
    const closed = new MessagingClient({ apiKey: t.apiKey, tenantId: t.tenantId, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const { ms, error } = await timed(() => closed.auth.me());
    assert.ok(error instanceof ConnectionError && !(error instanceof TimeoutError), String(error));
    assert.ok(ms >= 250, `retried after a backoff (${ms} ms)`);
  });

  it('a conditional PATCH or DELETE whose response is lost is not retried (it may have been applied); a refused one is', async () => {
    const endpoint = await t.client.webhooks.create({ url: 'https://localhost/conditional', events: ['booking.*'] });
    await reset();
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'drop' } : { kind: 'forward' }));
    const lost = await timed(() => client().webhooks.update(endpoint.id, { description: 'first' }, { ifMatch: endpoint.version }));
    // A retry would have answered 412 for this very change: the caller learns the outcome is unknown instead.
    assert.ok(lost.error instanceof ConnectionError, String(lost.error));
    assert.equal((await proxy.seen()).length, 1);
    const applied = await t.client.webhooks.get(endpoint.id);
    assert.deepEqual([applied.description, applied.version], ['first', endpoint.version + 1]);

    await reset();
    await failFirst(1, 503, { 'Retry-After': '0' });
    const refused = await client().webhooks.update(endpoint.id, { description: 'second' }, { ifMatch: applied.version });
    assert.equal(refused.description, 'second');
    assert.equal((await proxy.seen()).length, 2);

    await reset();
    await proxy.setDecide((_, i) => (i === 0 ? { kind: 'drop' } : { kind: 'forward' }));
    await client().webhooks.update(endpoint.id, { description: 'unconditional' });
    assert.equal((await proxy.seen()).length, 2, 'an unconditional PATCH is still retried');
    await t.client.webhooks.delete(endpoint.id);
  });

  it('409 idempotency_request_in_progress: the POST is retried with its key and gets the first response', async () => {
    const conversation = await t.client.conversations.create({ channel: 'sandbox', customer: { phone: `+49155${Date.now() % 1e7}` } });
    await reset();
    // The first attempt acts but its answer is lost; the retry meets it still running (409); the next replays it.
    await proxy.setDecide((_, i) =>
      i === 0 ? { kind: 'drop' } : i === 1 ? { kind: 'respond', status: 409, headers: { 'Retry-After': '0' }, body: problem(409, 'idempotency_request_in_progress') } : { kind: 'forward' },
    );
    const sent = await client().conversations.messages.send(conversation.id, { text: 'once, after a wait' });
    assert.equal((await proxy.seen()).length, 3);
    assert.equal(new Set((await proxy.seen()).map((s) => s.headers['idempotency-key'])).size, 1);
    assert.equal((await proxy.seen())[2]?.responseHeaders?.get('idempotent-replayed'), 'true');
    const copies = (await t.client.conversations.messages.list(conversation.id).toArray()).filter((m) => m.text === 'once, after a wait');
    assert.deepEqual(copies.map((m) => m.id), [sent.id]);
  });

  it('an abort signal stops the call, also while waiting to retry', async () => {
    await reset();
    await failFirst(100, 503, { 'Retry-After': '5' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 200);
    const { ms, error } = await timed(() => client({ maxRetries: 3 }).auth.me({ signal: controller.signal }));
    assert.equal((error as Error).message, 'stop');
    assert.ok(ms < 2000);
    assert.equal((await proxy.seen()).length, 1);
  });
});

describe('the real hourly limit of a free tenant', () => {
  it('a 429 after 100 requests is a RateLimitError with retryAfter, not retried for an hour', async () => {
    // A burst must not straddle two hourly windows, and the wait must exceed maxRetryDelay below.
    await awayFromWindowBoundary(3600, 20);
    const free = await newTenant('free');
    const direct = free.clientWith({ maxRetries: 0 });
    // 99 in parallel bursts, then the 100th alone: `rateLimit` reflects the last response to arrive.
    for (let sent = 0; sent < 99; sent += 33) await Promise.all(Array.from({ length: 33 }, () => direct.auth.me()));
    await direct.auth.me();
    assert.equal(direct.rateLimit?.limit, 100);
    assert.equal(direct.rateLimit?.remaining, 0);
    await reset();
    await proxy.setDecide(() => ({ kind: 'forward' }));
    const viaProxy = free.clientWith({ baseUrl: proxy.url, maxRetries: 3, maxRetryDelay: 10_000 });
    const { error } = await timed(() => viaProxy.auth.me());
    assert.ok(error instanceof RateLimitError, String(error));
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.status, 429);
    assert.ok(error.retryAfter !== undefined && error.retryAfter > 10 && error.retryAfter <= 3600, `retryAfter ${error.retryAfter}`);
    assert.equal((await proxy.seen()).length, 1);
  });
});
