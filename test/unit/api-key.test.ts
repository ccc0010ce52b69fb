import fc from 'fast-check';
import {
  API_KEY_PATTERN,
  base62,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  needsLastUsedRefresh,
} from '../../functions/api-keys/key';

describe('API key format', () => {
  it('is sk_ plus 40 base62 characters whose last 6 are a checksum', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix).toHaveLength(11);
  });

  it('rejects any single-character change (the checksum catches typos)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 42 }), fc.constantFrom(...'0123456789abcXYZ'), (position, replacement) => {
        const { key } = generateApiKey();
        fc.pre(key[position] !== replacement);
        const typo = key.slice(0, position) + replacement + key.slice(position + 1);
        expect(isWellFormedApiKey(typo)).toBe(false);
      }),
    );
  });

  it('never generates the same key twice in a batch', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it('encodes base62 at a fixed width', () => {
    expect(base62(0, 6)).toBe('000000');
    expect(base62(61, 2)).toBe('0z');
    expect(base62(62, 2)).toBe('10');
  });

  it('refreshes last_used_at at most once a minute', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    expect(needsLastUsedRefresh({ last_used_at: null }, now)).toBe(true);
    expect(needsLastUsedRefresh({ last_used_at: '2026-01-01T00:09:30Z' }, now)).toBe(false);
    expect(needsLastUsedRefresh({ last_used_at: '2026-01-01T00:09:00Z' }, now)).toBe(true);
  });
});
