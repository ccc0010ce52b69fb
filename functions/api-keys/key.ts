// Public: the key format, which authentication and tenant creation use.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format: `sk_` + 34 random base62 characters + a 6-character base62 CRC32 of those 34, so
 * secret scanners (and our own auth, before any lookup) can tell a real key from a typo.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 34;
const CHECKSUM_LENGTH = 6;
export const API_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
/** How much of a key is kept in clear for display: `sk_` and 8 characters. */
const DISPLAY_PREFIX_LENGTH = 11;

export function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const checksum = (body: string): string => base62(crc32(body), CHECKSUM_LENGTH);

export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const body = key.slice(3, 3 + RANDOM_LENGTH);
  return key.slice(3 + RANDOM_LENGTH) === checksum(body);
}

/**
 * Active keys a tenant may hold: a policy limit, with room to spare under MAX_TENANT_COPIES (a change of
 * the tenant rewrites each key's copy of it in the tenant's own transaction, at most 100 items).
 */
export const MAX_API_KEYS = 50;
/** Keys past this many (only tenants with keys from before the limit) carry no copy of the tenant. */
export const MAX_TENANT_COPIES = 99;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const body = randomBase62(RANDOM_LENGTH);
  const key = `sk_${body}${checksum(body)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export interface ApiKeyRecord {
  id: string;
  tenant_id: string;
  name: string;
  prefix: string;
  role: 'admin' | 'agent';
  created_at: string;
  created_by: string;
  last_used_at: string | null;
}

/** last_used_at is refreshed at most this often per key, to keep auth at one write per minute per key. */
export const LAST_USED_GRANULARITY_MS = 60_000;

export const needsLastUsedRefresh = (record: Pick<ApiKeyRecord, 'last_used_at'>, now: Date): boolean =>
  !record.last_used_at || now.getTime() - Date.parse(record.last_used_at) >= LAST_USED_GRANULARITY_MS;
