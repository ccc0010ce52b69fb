import { randomUUID } from 'node:crypto';
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
  const signal = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  const res = await fetch(`${testRuntime().url}${fullPath}`, { method, headers, body, signal });
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

/** Polls `fn` until `done` holds (async work: workers, pollers), failing after `ms`. */
export async function eventually<T>(fn: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const authOf = (t: TestTenant) => ({ tenant: t.tenantId, token: t.apiKey });

/** All of a tenant's events of the given types (pages through GET /events). */
export async function eventsOf(t: TestTenant, type = '*'): Promise<any[]> {
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

/** Waits out the last seconds of a fixed window, so a burst cannot straddle two windows. */
export async function awayFromWindowBoundary(windowSeconds: number, marginSeconds = 15): Promise<void> {
  const secondsLeft = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
  if (secondsLeft < marginSeconds) await new Promise((r) => setTimeout(r, (secondsLeft + 1) * 1000));
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
