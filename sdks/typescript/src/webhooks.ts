/**
 * Verifying webhook deliveries (Standard Webhooks). Each delivery carries `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`: one or more space-separated `v1,<base64>`
 * HMAC-SHA256 signatures of `${id}.${timestamp}.${raw body}`, keyed with the base64-decoded part of the
 * `whsec_…` secret. After a secret rotation the old and the new secret both sign for 24 hours.
 *
 * Node.js compares with `crypto.timingSafeEqual`; elsewhere (browsers, workers) Web Crypto's
 * `subtle.verify`, which compares in constant time too.
 */
import { MessagingError, WebhookVerificationError } from './core/errors.js';
import type { WebhookEvent } from './types.js';

/** Node's IncomingHttpHeaders, a plain object, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date | number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();

/**
 * Checks a delivery's signature and timestamp and returns the parsed event. `rawBody` must be the body
 * exactly as received (not re-serialised JSON). `secret` is the endpoint's `whsec_…` secret; pass
 * several to accept any of them. Throws `WebhookVerificationError`.
 */
export async function verifyWebhook<E = WebhookEvent>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<E> {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatureHeader = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatureHeader) {
    throw new WebhookVerificationError('missing_headers', 'The webhook-id, webhook-timestamp and webhook-signature headers are required.');
  }
  if (!/^\d{1,15}$/.test(timestamp.trim())) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a Unix time in seconds.');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(Number(options.now ?? Date.now()) / 1000);
  const sentAt = Number(timestamp.trim());
  if (nowSeconds - sentAt > tolerance) throw new WebhookVerificationError('timestamp_too_old', `The delivery is older than ${tolerance} seconds (a replay?).`);
  if (sentAt - nowSeconds > tolerance) throw new WebhookVerificationError('timestamp_in_future', `The delivery's timestamp is more than ${tolerance} seconds in the future.`);

  const body = bytesOf(rawBody);
  const signed = concat(encoder.encode(`${id}.${timestamp.trim()}.`), body);
  const signatures = signatureHeader
    .split(' ')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1,'))
    .map((part) => decodeBase64(part.slice(3)))
    .filter((sig): sig is Uint8Array => sig !== undefined);
  const keys = (typeof secret === 'string' ? [secret] : [...secret]).map(secretKey);
  if (keys.length === 0) throw new WebhookVerificationError('invalid_secret', 'No webhook secret was given.');

  if (!(await anySignatureMatches(keys, signed, signatures))) {
    throw new WebhookVerificationError('invalid_signature', 'No webhook signature matches the secret.');
  }
  try {
    return JSON.parse(new TextDecoder().decode(body)) as E;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not JSON.');
  }
}

/**
 * The headers the API would send with `body`: for testing your webhook handler. `timestamp` is Unix
 * seconds (default now).
 */
export async function signWebhook(
  body: string,
  secret: string,
  options: { id: string; timestamp?: number },
): Promise<{ 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string }> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = await hmac(secretKey(secret), encoder.encode(`${options.id}.${timestamp}.${body}`));
  return { 'webhook-id': options.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${encodeBase64(signature)}` };
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretKey(secret: string): Uint8Array {
  if (typeof secret !== 'string' || secret.length === 0) throw new WebhookVerificationError('invalid_secret', 'The webhook secret is empty.');
  const key = decodeBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!key || key.length === 0) throw new WebhookVerificationError('invalid_secret', 'The webhook secret is not a whsec_ base64 secret.');
  return key;
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new WebhookVerificationError('invalid_payload', 'rawBody must be the raw request body: a string, Uint8Array/Buffer or ArrayBuffer.');
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The parts of node:crypto used here (typed locally: the package needs no Node types). */
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): { update(data: Uint8Array): { digest(): Uint8Array } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

let nodeCrypto: Promise<NodeCrypto | undefined> | undefined;

/** Tests only (not exported by the package): force the Web Crypto path, as in a browser. */
export function useWebCryptoForTests(on: boolean): void {
  nodeCrypto = on ? Promise.resolve(undefined) : undefined;
}

/** node:crypto on Node.js, hidden from bundlers so browser builds never try to include it. */
function loadNodeCrypto(): Promise<NodeCrypto | undefined> {
  nodeCrypto ??= (async () => {
    if (typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== 'string') return undefined;
    const specifier = 'node:crypto';
    try {
      return (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeCrypto;
    } catch {
      return undefined;
    }
  })();
  return nodeCrypto;
}

async function anySignatureMatches(keys: Uint8Array[], signed: Uint8Array, signatures: Uint8Array[]): Promise<boolean> {
  const node = await loadNodeCrypto();
  let matched = false;
  for (const key of keys) {
    if (node) {
      const expected = node.createHmac('sha256', key).update(signed).digest();
      // Every candidate is compared (no early exit), each in constant time.
      for (const sig of signatures) if (sig.length === expected.length && node.timingSafeEqual(sig, expected)) matched = true;
    } else {
      const subtle = webCrypto();
      const cryptoKey = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
      for (const sig of signatures) if (await subtle.verify('HMAC', cryptoKey, sig as BufferSource, signed as BufferSource)) matched = true;
    }
  }
  return matched;
}

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const node = await loadNodeCrypto();
  if (node) return node.createHmac('sha256', key).update(data).digest();
  const subtle = webCrypto();
  const cryptoKey = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle.sign('HMAC', cryptoKey, data as BufferSource));
}

function webCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) throw new MessagingError('Web Crypto is not available (browsers expose it only on secure origins).');
  return subtle;
}
