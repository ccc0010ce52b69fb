import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { SealedValueError, seal, sealedKeyId, unseal } from '../../functions/platform/sealed';
import { dataKeys } from '../../functions/platform/secrets';

const KEY_A = 'data-key-a-0123456789abcdef0123456789abcdef';
const KEY_B = 'data-key-b-0123456789abcdef0123456789abcdef';
const KEY_C = 'data-key-c-0123456789abcdef0123456789abcdef';

function useKeys(current: string, previous?: string) {
  process.env.DATA_KEY = current;
  if (previous) process.env.DATA_KEY_PREVIOUS = previous;
  else delete process.env.DATA_KEY_PREVIOUS;
}

const keyId = async (material: string) => {
  useKeys(material);
  return (await dataKeys()).current.id;
};

/** A value in the format used before key ids: `v1.` + iv|tag|ciphertext under SHA-256 of the key. */
function legacySeal(value: unknown, material: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(material).digest(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

const secret = { access_token: 'EAAG-token', app_secret: 'shh' };

afterEach(() => {
  delete process.env.DATA_KEY;
  delete process.env.DATA_KEY_PREVIOUS;
});

describe('sealed values and data key rotation', () => {
  it('unseals a value sealed with key A after rotating to B with A as the previous key', async () => {
    useKeys(KEY_A);
    const sealedA = await seal(secret);
    useKeys(KEY_B, KEY_A);
    expect(await unseal(sealedA)).toEqual(secret);
  });

  it('marks values with the id of the key that sealed them', async () => {
    const [idA, idB] = [await keyId(KEY_A), await keyId(KEY_B)];
    expect(idA).not.toBe(idB);
    useKeys(KEY_B, KEY_A);
    const sealedB = await seal(secret);
    expect(sealedKeyId(sealedB)).toBe(idB);
    expect(sealedB.startsWith(`v2.${idB}.`)).toBe(true);
    useKeys(KEY_B);
    expect(await unseal(sealedB)).toEqual(secret);
  });

  it('fails cleanly for a key id that is neither the current nor the previous key', async () => {
    useKeys(KEY_A);
    const sealedA = await seal(secret);
    const idA = sealedKeyId(sealedA);
    useKeys(KEY_C, KEY_B);
    const error = await unseal(sealedA).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SealedValueError);
    expect((error as Error).message).toContain(`data key ${idA}`);
  });

  it('refuses a value whose key id or ciphertext was altered', async () => {
    useKeys(KEY_A, KEY_B);
    const sealed = await seal(secret);
    const idB = await keyId(KEY_B);
    useKeys(KEY_A, KEY_B);
    // Relabelled with the other known key's id: the key id is authenticated, so this cannot open.
    await expect(unseal(sealed.replace(/^v2\.[\w-]+\./, `v2.${idB}.`))).rejects.toBeInstanceOf(SealedValueError);
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    await expect(unseal(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`)).rejects.toBeInstanceOf(SealedValueError);
    await expect(unseal('not sealed')).rejects.toBeInstanceOf(SealedValueError);
  });

  it('keeps reading values sealed before key ids, with the current key and during a rotation', async () => {
    const legacy = legacySeal(secret, KEY_A);
    expect(sealedKeyId(legacy)).toBeUndefined();
    useKeys(KEY_A);
    expect(await unseal(legacy)).toEqual(secret);
    useKeys(KEY_B, KEY_A);
    expect(await unseal(legacy)).toEqual(secret);
    useKeys(KEY_C, KEY_B);
    await expect(unseal(legacy)).rejects.toBeInstanceOf(SealedValueError);
  });
});
