import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { dataKeys, type DataKey } from './secrets';

/**
 * AES-256-GCM sealing for secrets kept in the tables (channel credentials, webhook secrets, stored
 * responses). Format `v2.<key id>.<iv|tag|ciphertext>`, with `v2.<key id>` as authenticated data: the key
 * id names the data key that sealed it, so the key can be rotated while the previous one still unseals.
 * Values from before key ids (`v1.`) are tried with the current key, then the previous one.
 */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

export async function seal(value: unknown): Promise<string> {
  const { current } = await dataKeys();
  const header = `v2.${current.id}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(header));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `${header}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The id of the key that sealed a value, or undefined for the old format without one. */
export function sealedKeyId(sealed: string): string | undefined {
  return /^v2\.([\w-]+)\./.exec(sealed)?.[1];
}

export async function unseal<T>(sealed: string): Promise<T> {
  if (sealed.startsWith('v1.')) return unsealLegacy<T>(sealed.slice(3));
  const match = /^(v2\.([\w-]+))\.([\w-]+)$/.exec(sealed);
  if (!match) throw new SealedValueError('Not a sealed value.');
  const [, header = '', id, payload = ''] = match;
  let key = findKey(await dataKeys(), id);
  // Another container may have started sealing with a key this one has not fetched yet.
  key ??= findKey(await dataKeys({ refresh: true }), id);
  if (!key)
    throw new SealedValueError(`Sealed with data key ${id}, which is neither the current nor the previous data key.`);
  const plain = open(key.key, Buffer.from(payload, 'base64url'), Buffer.from(header));
  if (plain === undefined) throw new SealedValueError(`A value sealed with data key ${id} does not authenticate.`);
  return JSON.parse(plain) as T;
}

const findKey = (keys: { current: DataKey; previous?: DataKey }, id: string | undefined) =>
  [keys.current, keys.previous].find((k) => k !== undefined && k.id === id);

async function unsealLegacy<T>(payload: string): Promise<T> {
  const { current, previous } = await dataKeys();
  const raw = Buffer.from(payload, 'base64url');
  for (const key of [current, previous]) {
    const plain = key && open(key.key, raw);
    if (plain !== undefined) return JSON.parse(plain) as T;
  }
  throw new SealedValueError(
    'A value sealed without a key id opens with neither the current nor the previous data key.',
  );
}

/** The plaintext, or undefined when the key is wrong or the value was altered. */
function open(key: Buffer, raw: Buffer, aad?: Buffer): string | undefined {
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
