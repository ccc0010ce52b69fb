// Shared by the SDK's tests: the runtime started by test/run.mjs (through the main suite's support
// modules), fresh tenants made with the SDK's own PlatformClient, and a small HTTP proxy in front of the
// runtime that records requests and injects faults (429s, 5xx, delays, dropped responses).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { testRuntime } from '../../../test/support/runtime';
import { MessagingClient, PlatformClient, type ClientOptions } from '../src/index.js';

export { startReceiver } from '../../../test/support/receiver';

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

export type Decide = (request: Seen, index: number) => ProxyAction;

/** An HTTP proxy in front of the runtime; `decide` picks what happens to each request (by arrival order). */
export async function startProxy(decide: Decide = () => ({ kind: 'forward' })) {
  const target = baseUrl();
  const seen: Seen[] = [];
  let current = decide;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void handle());
    const handle = async () => {
      const entry: Seen = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = seen.push(entry) - 1;
      const action = current(entry, index);
      if (action.kind === 'respond') {
        entry.status = action.status;
        const body = action.body === undefined ? '' : JSON.stringify(action.body);
        res.writeHead(action.status, { 'Content-Type': 'application/problem+json', ...action.headers });
        res.end(body);
        return;
      }
      if (action.kind === 'delay') await new Promise((r) => setTimeout(r, action.ms));
      if (res.destroyed) return;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || ['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding'].includes(name)) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      try {
        const upstream = await fetch(`${target}${entry.path}`, { method: entry.method, headers, body: entry.body === '' ? undefined : entry.body });
        const text = await upstream.text();
        entry.status = upstream.status;
        entry.responseHeaders = upstream.headers;
        if (action.kind === 'drop') {
          req.socket.destroy();
          return;
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding'].includes(name)) out[name] = value;
        });
        res.writeHead(upstream.status, out);
        res.end(text);
      } catch (error) {
        res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      }
    };
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setDecide: (d: Decide) => void (current = d),
    /** Requests to paths starting with `prefix` (after /api/v1). */
    to: (method: string, prefix: string) => seen.filter((s) => s.method === method && s.path.replace(/^\/api\/v1/, '').startsWith(prefix)),
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
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
