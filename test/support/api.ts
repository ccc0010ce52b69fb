import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { chaosFromEnv } from '../../local/chaos/config';
import { WORKER_TIMEOUT_SECONDS } from '../../catalog/resources';
import { recordContract } from './contract';
import { testRuntime } from './runtime';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  tenant?: string;
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** false: skip the contract check (a test reading back a hand-made event, which no real change emits). */
  contract?: false;
  /** Give up on the answer after this long (the call then throws). */
  timeoutMs?: number;
}

/**
 * `fetch`, as a client of the API does it: a 503 is a throttled dependency with nothing written
 * (docs/api-conventions.md), so the client waits its Retry-After and tries again, as the SDKs do. Only the
 * chaos mode throttles the local runtime.
 */
export async function fetchAsClient(url: string | URL, init: () => RequestInit): Promise<Response> {
  let res = await fetch(url, init());
  for (let retry = 0; res.status === 503 && res.headers.has('retry-after') && retry < 5; retry++) {
    await res.text();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
    res = await fetch(url, init());
  }
  return res;
}

/** A tiny client for the local gateway: JSON in, parsed JSON (or problem+json) out. */
export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.tenant) headers['X-Tenant-ID'] = opts.tenant;
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const fullPath = `${path.startsWith('/v1') ? '' : '/api/v1'}${path}`;
  const signal = () => (opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs));
  const res = await fetchAsClient(`${testRuntime().url}${fullPath}`, () => ({
    method,
    headers,
    body,
    signal: signal(),
  }));
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  // Every response is checked against openapi.json; a violation fails the test that made the call.
  if (opts.contract !== false)
    recordContract({ method, path: fullPath, status: res.status, headers: res.headers, body: parsed, text });
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const platform = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(method, `/platform${path}`, { token: testRuntime().platformToken, body, headers });

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  adminUserId: string;
}

/** A fresh tenant through the platform API, so every test file is isolated from the others. */
export async function createTenant(
  plan: 'free' | 'starter' | 'pro' | 'enterprise' = 'pro',
  extra: Record<string, unknown> = {},
): Promise<TestTenant> {
  const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
  const adminPassword = 'correct horse battery staple';
  const res = await platform('POST', '/tenants', {
    name: 'Test Co',
    plan,
    admin: { email: adminEmail, password: adminPassword },
    ...extra,
  });
  if (res.status !== 201) throw new Error(`tenant creation failed: ${res.status} ${res.text}`);
  return {
    tenantId: res.body.tenant.id,
    apiKey: res.body.api_key.key,
    adminEmail,
    adminPassword,
    adminUserId: res.body.admin_user.id,
  };
}

export async function login(t: TestTenant, email = t.adminEmail, password = t.adminPassword) {
  const res = await call('POST', '/auth/login', { tenant: t.tenantId, body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body as { access_token: string; refresh_token: string; session_id: string };
}

/**
 * Polls `fn` until `done` holds (async work: workers, pollers), failing after `ms`. The pause between
 * reads doubles from 100 ms to at most 1 s: a wait of minutes (a send settled by the sweeper) must not
 * spend the tenant's hourly request limit, nor a wait on a login the per-account failed-login limit.
 */
export async function eventually<T>(fn: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    const value = await fn();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}

/**
 * A list read after a write: lists are eventually consistent (docs/api-conventions.md), so this waits
 * until the list answers 200 with a body `done` accepts, and returns that response.
 */
export const listEventually = (path: string, opts: CallOptions, done: (body: any) => boolean, ms?: number) =>
  eventually(
    () => call('GET', path, opts),
    (res) => res.status === 200 && done(res.body),
    ms,
  );

/**
 * Waits until `read()` equals `expected` (deeply): for a list read after a write, since lists are
 * eventually consistent (docs/api-conventions.md). On time-out the last read fails the test with a diff.
 */
export async function settlesTo<T>(read: () => Promise<T>, expected: T, ms?: number): Promise<void> {
  try {
    await eventually(read, (value) => isDeepStrictEqual(value, expected), ms);
  } catch {
    expect(await read()).toEqual(expected);
  }
}

/**
 * settlesTo for a list ordered by times the server took (activity, creation) of writes made within
 * moments of each other: exact order normally; under the chaos mode, whose clocks differ by up to seconds
 * between invocations (docs/chaos.md), such an order is only as good as those clocks, so the same items in
 * any order.
 */
export const settlesToInClockOrder = (read: () => Promise<string[]>, expected: (string | undefined)[], ms?: number) =>
  settlesTo(async () => clockOrdered(await read()), clockOrdered(expected), ms);

/** Ids as a list ordered by server clocks shows them: as they are, or sorted under chaos (settlesToInClockOrder). */
export const clockOrdered = <T extends string | undefined>(ids: T[]): T[] =>
  process.env.CHAOS ? [...ids].sort() : ids;

/**
 * How far a time the server takes may be off the real time (this process's clock): the chaos mode's
 * per-invocation clock skew (docs/chaos.md), 0 without it.
 */
export const serverClockSkewMs = (): number => chaosFromEnv()?.faults.clockSkewMs ?? 0;

/** The ids of a list response's items, in order. */
/**
 * How much later than due scheduled work (template reviews, reminders, scheduled messages, sweeps) may run
 * under the chaos mode: a scheduled run that times out keeps its lease until the worker's timeout plus 10 s
 * after its start (SCHEDULED_RUN_LEASE_MS, functions/platform/leases.ts), as in AWS, and the runs in
 * between are skipped. Locally the runs come every second or two, so such a lapse is met often.
 */
export const scheduledRunLateMs = (): number => (chaosFromEnv() ? (WORKER_TIMEOUT_SECONDS + 10) * 1000 : 0);

/**
 * How long a delivery may take to reach its receiver (or its failed view): moments, but under the chaos mode
 * a dispatcher that timed out after recording it leaves it to the sweeper (every 2 s there, after an 8 s
 * grace, later while a timed-out sweep's lease runs out: scheduledRunLateMs), and a throttled or
 * redelivered batch comes back seconds later.
 */
export const DELIVERED_WITHIN_MS = 30_000 + scheduledRunLateMs();

export const idsOf = (res: ApiResponse): string[] => (res.body.data as { id: string }[]).map((x) => x.id);

export const authOf = (t: TestTenant) => ({ tenant: t.tenantId, token: t.apiKey });

/** A 30-minute Haircut for the customer of `conversation`, starting `startInMs` from now (Europe/Berlin). */
export async function bookFor(
  t: TestTenant,
  conversation: { id: string; customer: { id: string } },
  startInMs: number,
  status = 'pending',
) {
  const start = new Date(Date.now() + startInMs);
  const res = await call('POST', '/bookings', {
    ...authOf(t),
    body: {
      customer: { id: conversation.customer.id },
      conversation_id: conversation.id,
      service: 'Haircut',
      start_at: start.toISOString(),
      end_at: new Date(start.getTime() + 30 * 60_000).toISOString(),
      timezone: 'Europe/Berlin',
      status,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/**
 * All of a tenant's events of the given types (pages through GET /events); with `until`, read again until
 * it holds of them (the list is eventually consistent: an event committed with its change shows soon after).
 */
export async function eventsOf(t: TestTenant, type = '*', until?: (events: any[]) => boolean): Promise<any[]> {
  if (until) return eventually(() => eventsOf(t, type), until);
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await call(
      'GET',
      `/events?limit=100&type=${encodeURIComponent(type)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      authOf(t),
    );
    if (res.status !== 200) throw new Error(`GET /events: ${res.status} ${res.text}`);
    all.push(...res.body.data);
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return all;
}

/**
 * Waits out the last seconds of a fixed window, so a burst cannot straddle two windows. The server counts
 * by its own clock: under the chaos mode each invocation's runs up to `serverClockSkewMs` off, so the burst
 * starts that much past the boundary and keeps that much away from the next.
 */
export async function awayFromWindowBoundary(windowSeconds: number, marginSeconds = 15): Promise<void> {
  const skew = serverClockSkewMs();
  const intoWindow = Date.now() % (windowSeconds * 1000);
  const left = windowSeconds * 1000 - intoWindow;
  if (left < marginSeconds * 1000 + skew) await new Promise((r) => setTimeout(r, left + skew + 1000));
  else if (intoWindow < skew) await new Promise((r) => setTimeout(r, skew - intoWindow + 1000));
}

/** The platform Meta app's secret in the tests (webhook signatures are made with it). */
export const WHATSAPP_APP_SECRET = 'whatsapp-app-secret-for-tests';

/**
 * Connects a WhatsApp number (`id` is its phone_number_id) to the tenant through the platform's app:
 * 201 or the test fails.
 */
export async function connectWhatsApp(tenant: TestTenant, id: string): Promise<ApiResponse> {
  const res = await call('POST', '/channels/whatsapp', {
    ...authOf(tenant),
    body: {
      phone_number_id: id,
      display_phone_number: '+1 555 000 1111',
      access_token: `EAAG-token-${id}`,
      waba_id: `8${id}`,
    },
  });
  if (res.status !== 201) throw new Error(`POST /channels/whatsapp: ${res.status} ${res.text}`);
  return res;
}
