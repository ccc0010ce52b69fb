// Shared by the SDK's tests: the runtime started by test/run.mjs (through the main suite's support
// modules), fresh tenants made with the SDK's own PlatformClient, and clients of the fault proxy (records
// requests, injects 429s, 5xx, delays, dropped responses) and the HTTPS webhook receiver that the three SDK
// suites share (sdks/conformance/test-servers.mjs).
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { testRuntime } from '../../../test/support/runtime';
import { MessagingClient, PlatformClient, type ClientOptions } from '../src/index.js';

export const runtime = () => testRuntime();
export const baseUrl = () => testRuntime().url;

export const platformClient = (options: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}) =>
  new PlatformClient({ token: testRuntime().platformToken, baseUrl: baseUrl(), ...options });

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
  adminUserId: string;
  /** A client with the tenant's admin API key, straight to the runtime. */
  client: MessagingClient;
  /** A client with the tenant's admin API key and other options (e.g. through a proxy). */
  clientWith: (options: Partial<ClientOptions>) => MessagingClient;
}

/** A fresh tenant (so test files never see each other's data), created with the SDK. */
export async function newTenant(plan: 'free' | 'starter' | 'pro' | 'enterprise' = 'pro'): Promise<TestTenant> {
  const adminEmail = `sdk-${randomUUID().slice(0, 8)}@example.com`;
  const adminPassword = 'correct horse battery staple';
  const created = await platformClient().tenants.create({
    name: 'SDK Test Co',
    plan,
    ...(plan === 'enterprise' ? { rate_limit_per_hour: 5000 } : {}),
    admin: { email: adminEmail, password: adminPassword, name: 'Sam Admin' },
  });
  const apiKey = created.api_key.key;
  const tenantId = created.tenant.id;
  const clientWith = (options: Partial<ClientOptions>) => new MessagingClient({ apiKey, tenantId, baseUrl: baseUrl(), ...options });
  return { tenantId, apiKey, adminEmail, adminPassword, adminUserId: created.admin_user.id, client: clientWith({}), clientWith };
}

/** A unique E.164 number for a sandbox customer. */
export const phone = () => `+49151${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** The upstream status (or the injected one), once answered. */
  status?: number;
  responseHeaders?: Headers;
}

export type ProxyAction =
  /** Pass the request to the runtime and its answer back. */
  | { kind: 'forward' }
  /** Pass it to the runtime, wait for its whole answer, then cut the client's connection (a lost response). */
  | { kind: 'drop' }
  /** Answer without asking the runtime. */
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Wait, then forward. */
  | { kind: 'delay'; ms: number };

/** What happens to each request, by arrival order since the last reset (the shared proxy runs it remotely). */
export type Decide = (request: undefined, index: number) => ProxyAction;

/** Decisions sent for the first requests; every later one gets the decision for this index. */
const SCRIPTED = 16;
const scriptOf = (decide: Decide) => ({
  script: Array.from({ length: SCRIPTED }, (_, index) => decide(undefined, index)),
  otherwise: decide(undefined, SCRIPTED),
});

/** The shared test servers' control API (sdks/conformance/test-servers.mjs), named by SDK_FAULT_PROXY_URL. */
async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const base = process.env.SDK_FAULT_PROXY_URL;
  if (!base) throw new Error('SDK_FAULT_PROXY_URL is not set: run the tests with `npm test` in sdks/typescript');
  const res = await fetch(`${base}/_control${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`test servers: ${method} ${path} answered ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** A proxy in front of the runtime (one path of the suites' shared fault proxy); `decide` picks each request's fate. */
export async function startProxy(decide: Decide = () => ({ kind: 'forward' })) {
  const { id, url } = await control<{ id: string; url: string }>('POST', '/proxies', scriptOf(decide));
  const seen = async (): Promise<Seen[]> =>
    (await control<(Omit<Seen, 'responseHeaders'> & { response_headers?: Record<string, string> })[]>('GET', `/proxies/${id}/requests`)).map(
      ({ response_headers, ...entry }) => ({ ...entry, responseHeaders: response_headers ? new Headers(response_headers) : undefined }),
    );
  return {
    url,
    /** The requests since the last reset, in arrival order. */
    seen,
    /** Forgets the requests seen; arrival indexes start again at 0. */
    reset: () => control('DELETE', `/proxies/${id}/requests`),
    setDecide: (d: Decide) => control('PUT', `/proxies/${id}/script`, scriptOf(d)),
    /** Requests to paths starting with `prefix` (after /api/v1). */
    to: async (method: string, prefix: string) =>
      (await seen()).filter((s) => s.method === method && s.path.replace(/^\/api\/v1/, '').startsWith(prefix)),
    close: () => control('DELETE', `/proxies/${id}`),
  };
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A real HTTPS webhook receiver with the test CA's certificate (one path of the suites' shared receiver). */
export async function startReceiver(answer: Answer = { status: 200, body: 'ok' }) {
  const { id, url } = await control<{ id: string; url: string }>('POST', '/receivers', answer);
  return {
    url: (path = '/hook') => `${url}${path}`,
    /** The deliveries so far. */
    received: () => control<Received[]>('GET', `/receivers/${id}/received`),
    /** The answer to deliveries from now on. */
    setBehaviour: (next: Answer) => control('PUT', `/receivers/${id}/behaviour`, next),
    close: () => control('DELETE', `/receivers/${id}`),
  };
}

/** Polls `fn` until `done` holds (asynchronous work: receipts, deliveries), failing after `ms`. */
export async function eventually<T>(fn: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits out the last seconds of the API's hourly rate-limit window, so a burst stays inside one window. */
export async function awayFromWindowBoundary(windowSeconds: number, marginSeconds: number): Promise<void> {
  const secondsLeft = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
  if (secondsLeft < marginSeconds) await new Promise((r) => setTimeout(r, (secondsLeft + 1) * 1000));
}

/** How long `fn` takes, in milliseconds, with its result or error. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = Date.now();
  try {
    const value = await fn();
    return { ms: Date.now() - started, value };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}
