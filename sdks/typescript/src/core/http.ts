/**
 * The transport every resource uses: URL and headers, credentials, per-attempt timeouts, retries with
 * exponential backoff and jitter (honouring `Retry-After`), an automatic `Idempotency-Key` on POSTs, and
 * problem+json errors as typed exceptions.
 */
import {
  ApiError,
  ConnectionError,
  errorFromResponse,
  MessagingError,
  parseRetryAfter,
  TimeoutError,
  type Problem,
  type RateLimitInfo,
} from './errors.js';
import { SDK_VERSION } from '../version.js';

/** A `fetch` implementation: the platform's by default; pass another to add tracing or a proxy. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Options every client accepts. */
export interface TransportOptions {
  /**
   * The API's address, e.g. `https://api.example.com` or `http://127.0.0.1:3000`. `/api/v1` is added
   * unless the URL already ends with `/v1`.
   */
  baseUrl: string;
  /** Retries after the first attempt, for 429, 5xx, timeouts and network errors. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds, including reading the response. Default 60 000. */
  timeout?: number;
  /**
   * The longest wait before a retry, in milliseconds (default 60 000). A `Retry-After` longer than this
   * (an hourly limit used up) is not waited out: the error is thrown at once, with its `retryAfter`.
   */
  maxRetryDelay?: number;
  /** Replaces the platform `fetch`. */
  fetch?: FetchLike;
  /** Extra headers on every request. In browsers, only headers the API's CORS policy allows work. */
  headers?: Record<string, string>;
}

/** Per-call options, the last argument of every resource method. */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of a POST. The SDK makes a random one when it is left out; pass your own to
   * make a retry of yours (say after a crash) replay the first response instead of acting twice.
   */
  idempotencyKey?: string;
  /** Abort the call (and any wait between retries). */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout (milliseconds). */
  timeout?: number;
  /** Overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Options of calls that honour `If-Match`. */
export interface ConditionalRequestOptions extends RequestOptions {
  /**
   * Only apply the change if the resource is still at this version (the `version` of the copy you read,
   * or its ETag). Otherwise the call fails with `PreconditionFailedError` (412).
   */
  ifMatch?: number | string;
}

export type QueryValue = string | number | boolean | Date | null | undefined;
export type Query = Record<string, QueryValue>;

/** How a request authenticates: a tenant credential, the platform token, or nothing (login, refresh). */
export type AuthKind = 'tenant' | 'platform' | 'none';

/**
 * `safe`: retry after any retryable failure (GET, PATCH, DELETE, and POSTs, which carry an
 * Idempotency-Key). `refused`: retry only when the API answered that it did not act (429, 503), for calls
 * the API does not make idempotent and that must not run twice (refreshing a session).
 */
export type RetryPolicy = 'safe' | 'refused';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query | undefined;
  body?: unknown;
  auth: AuthKind;
  retry?: RetryPolicy;
  options?: ConditionalRequestOptions | undefined;
}

/** A successful response. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** `X-Request-Id`. */
  requestId: string | undefined;
}

/** Supplies the credential headers of a request; session credentials can also refresh after a 401. */
export interface Credentials {
  /** Sets `Authorization` (and `X-Tenant-ID`) on the headers of one attempt; returns the token it used. */
  authorize(headers: Headers): Promise<string | undefined>;
  /**
   * Called once per request after a 401 with the token that got it. Resolves true when the request is
   * worth repeating with fresh credentials (the session was refreshed).
   */
  recover?(rejectedToken: string | undefined): Promise<boolean>;
}

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … up to 8 s, each between half and all of that. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** retry);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** The API base: `/api/v1` is added unless the URL already ends with a version segment. */
export function apiBase(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new MessagingError(`baseUrl must be an absolute URL such as https://api.example.com, not ${JSON.stringify(baseUrl)}.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = /\/v1$/.test(path) ? path : `${path}/api/v1`;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** A random Idempotency-Key (a UUID v4). */
export function newIdempotencyKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const nodeVersion = (): string | undefined => (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;

export class Transport {
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly maxRetryDelay: number;
  private readonly fetchImpl: FetchLike;
  private readonly extraHeaders: Record<string, string>;
  private readonly credentials: Partial<Record<AuthKind, Credentials>> = {};
  /** The rate limit reported by the last response that carried one. */
  rateLimit: RateLimitInfo | undefined;

  constructor(options: TransportOptions) {
    if (!options || typeof options.baseUrl !== 'string') throw new MessagingError('baseUrl is required, e.g. https://api.example.com');
    this.baseUrl = apiBase(options.baseUrl);
    this.maxRetries = nonNegative(options.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries');
    this.timeout = nonNegative(options.timeout, DEFAULT_TIMEOUT_MS, 'timeout');
    this.maxRetryDelay = nonNegative(options.maxRetryDelay, DEFAULT_MAX_RETRY_DELAY_MS, 'maxRetryDelay');
    const platformFetch = (globalThis as { fetch?: FetchLike }).fetch;
    const chosen = options.fetch ?? platformFetch;
    if (!chosen) throw new MessagingError('No fetch implementation: use Node.js 20+ or a browser, or pass `fetch`.');
    // Unbound platform fetch throws "Illegal invocation" in browsers.
    this.fetchImpl = options.fetch ?? ((input, init) => chosen.call(globalThis, input, init));
    this.extraHeaders = { ...options.headers };
  }

  setCredentials(kind: AuthKind, credentials: Credentials): void {
    this.credentials[kind] = credentials;
  }

  url(path: string, query?: Query): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      search.append(name, value instanceof Date ? value.toISOString() : String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const options = spec.options ?? {};
    const maxRetries = nonNegative(options.maxRetries, this.maxRetries, 'maxRetries');
    const timeout = nonNegative(options.timeout, this.timeout, 'timeout');
    // A conditional PATCH or DELETE is retried only when the API refused it: after a lost response it may
    // have been applied, and its retry would answer 412 for the caller's own change (a POST is replayed by
    // its Idempotency-Key instead).
    const policy = spec.retry ?? (options.ifMatch !== undefined && spec.method !== 'POST' ? 'refused' : 'safe');
    const credentials = spec.auth === 'none' ? undefined : this.credentials[spec.auth];
    if (spec.auth !== 'none' && !credentials) throw new MessagingError(`This client has no ${spec.auth} credentials.`);
    // One key for every attempt of this call, so a retry after a lost response replays it.
    const idempotencyKey = spec.method === 'POST' && spec.auth !== 'none' ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    const url = this.url(spec.path, spec.query);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    let recovered = false;

    for (let retry = 0; ; retry++) {
      throwIfAborted(options.signal);
      const headers = new Headers({ Accept: 'application/json', ...this.extraHeaders });
      const node = nodeVersion();
      if (node) headers.set('User-Agent', `messaging-platform-sdk-typescript/${SDK_VERSION} node/${node}`);
      if (body !== undefined) headers.set('Content-Type', 'application/json');
      if (idempotencyKey) headers.set('Idempotency-Key', idempotencyKey);
      if (options.ifMatch !== undefined) headers.set('If-Match', etagOf(options.ifMatch));
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
      const token = credentials ? await credentials.authorize(headers) : undefined;

      // Throws only when the caller aborts: that is not retried.
      const outcome = await this.attempt(url, { method: spec.method, headers, body }, timeout, options.signal);

      if ('error' in outcome) {
        if (policy === 'safe' && retry < maxRetries) {
          await sleep(backoffDelay(retry), options.signal);
          continue;
        }
        throw outcome.error;
      }

      const { response, text } = outcome;
      this.noteRateLimit(response.headers);
      if (response.ok) {
        return { data: parseBody(response, text) as T, status: response.status, headers: response.headers, requestId: response.headers.get('x-request-id') ?? undefined };
      }

      const error = errorFromResponse(response.status, problemOf(response, text), response.headers);
      if (response.status === 401 && credentials?.recover && !recovered) {
        recovered = true;
        if (await credentials.recover(token)) {
          retry--; // a refreshed session is not a retry
          continue;
        }
      }
      const delay = this.retryDelay(error, retry, maxRetries, policy);
      if (delay === undefined) throw error;
      await sleep(delay, options.signal);
    }
  }

  /** Milliseconds to wait before retrying after this error, or undefined to give up. */
  private retryDelay(error: ApiError, retry: number, maxRetries: number, policy: RetryPolicy): number | undefined {
    if (retry >= maxRetries) return undefined;
    const status = error.status;
    // The first request with this Idempotency-Key is still running: this one did nothing; a retry replays it.
    const inProgress = status === 409 && error.code === 'idempotency_request_in_progress';
    const refused = status === 429 || status === 503 || inProgress;
    if (!(refused || (policy === 'safe' && status >= 500))) return undefined;
    const retryAfter = parseRetryAfter(error.headers.get('retry-after'));
    if (retryAfter === undefined) return backoffDelay(retry);
    const ms = retryAfter * 1000;
    // An hourly limit used up: waiting most of an hour inside one call helps nobody.
    return ms > this.maxRetryDelay ? undefined : ms;
  }

  /** One attempt: resolves with the response and its text, or with a ConnectionError. */
  private async attempt(url: string, init: RequestInit, timeout: number, signal: AbortSignal | undefined): Promise<{ response: Response; text: string } | { error: ConnectionError }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = timeout > 0 ? setTimeout(() => { timedOut = true; controller.abort(); }, timeout) : undefined;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetchImpl(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (timedOut) return { error: new TimeoutError(`No response from ${init.method} ${url} within ${timeout} ms.`, { cause: error }) };
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      return { error: new ConnectionError(`${init.method} ${url} failed: ${reason}`, { cause: error }) };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private noteRateLimit(headers: Headers): void {
    const limit = headers.get('x-ratelimit-limit');
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = headers.get('x-ratelimit-reset');
    if (limit === null || remaining === null || reset === null) return;
    this.rateLimit = { limit: Number(limit), remaining: Number(remaining), resetAt: new Date(Number(reset) * 1000) };
  }
}

/** `If-Match` from a version number or an ETag. */
export function etagOf(value: number | string): string {
  if (typeof value === 'number') return `"${value}"`;
  return /^(W\/)?".*"$/.test(value) || value === '*' ? value : `"${value}"`;
}

function parseBody(response: Response, text: string): unknown {
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/json/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MessagingError(`The API answered ${response.status} with a body that is not valid JSON.`, { cause: error });
  }
}

function problemOf(response: Response, text: string): Problem {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Problem;
  } catch {
    // Not JSON: a proxy or load balancer answered.
  }
  return { status: response.status, title: response.statusText || `HTTP ${response.status}`, detail: text.slice(0, 500) || undefined };
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new MessagingError(`${name} must be a number >= 0.`);
  return value;
}

/** What an aborted call rejects with: the signal's reason, as `fetch` does. */
const abortReason = (signal: AbortSignal): Error => (signal.reason ?? new Error('The operation was aborted.')) as Error;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
