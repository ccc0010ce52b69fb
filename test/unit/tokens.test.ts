import { SignJWT, UnsecuredJWT } from 'jose';
import {
  issueAccessToken,
  issueRefreshToken,
  verifyAccessToken,
  verifyRefreshToken,
} from '../../functions/auth/tokens';
import { hashPassword, verifyPassword } from '../../functions/auth/passwords';
import { decodeCursor, encodeCursor } from '../../functions/platform/pagination';
import { idAfter, isId, isUuid, newId, newIdSeries, newTenantId } from '../../functions/platform/ids';
import { codeOf } from '../support/errors';

process.env.JWT_SECRET = 'unit-test-secret-with-enough-entropy-0123456789';
const claims = { tenantId: '3f1c2d4e-5b6a-4c7d-8e9f-0a1b2c3d4e5f', userId: 'usr_1', sessionId: 'ses_1' };
const now = new Date('2026-06-01T00:00:00Z');

describe('access and refresh tokens (injected clock)', () => {
  it('verifies a fresh access token and carries the claims', async () => {
    const { token, expiresAt } = await issueAccessToken(claims, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(30 * 60 * 1000);
    const verified = await verifyAccessToken(token, new Date(now.getTime() + 29 * 60 * 1000));
    expect(verified).toMatchObject(claims);
  });

  it('expires access tokens after 30 minutes', async () => {
    const { token } = await issueAccessToken(claims, now);
    expect(await codeOf(verifyAccessToken(token, new Date(now.getTime() + 31 * 60 * 1000)))).toBe('401:token_expired');
  });

  it('never accepts a refresh token as an access token, nor the reverse', async () => {
    const refresh = await issueRefreshToken({ ...claims, jti: 'rt_1' }, now, new Date(now.getTime() + 86_400_000));
    const { token: access } = await issueAccessToken(claims, now);
    expect(await codeOf(verifyAccessToken(refresh, now))).toBe('401:invalid_token');
    expect(await codeOf(verifyRefreshToken(access, now))).toBe('401:invalid_token');
    expect((await verifyRefreshToken(refresh, now)).jti).toBe('rt_1');
  });

  it('refuses alg "none" and other algorithms', async () => {
    const unsigned = new UnsecuredJWT({ tid: claims.tenantId, sid: 'ses_1' })
      .setSubject('usr_1')
      .setIssuer('messaging-platform')
      .setAudience('messaging-api')
      .setJti('x')
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    expect(await codeOf(verifyAccessToken(unsigned, new Date()))).toBe('401:invalid_token');
    const hs512 = await new SignJWT({ tid: claims.tenantId, sid: 'ses_1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('usr_1')
      .setIssuer('messaging-platform')
      .setAudience('messaging-api')
      .setJti('x')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(process.env.JWT_SECRET));
    expect(await codeOf(verifyAccessToken(hs512, new Date()))).toBe('401:invalid_token');
  });

  it('refuses a token signed with another key', async () => {
    const { token } = await issueAccessToken(claims, now);
    const [h, p] = token.split('.');
    const forged = await new SignJWT(JSON.parse(Buffer.from(p ?? '', 'base64url').toString()))
      .setProtectedHeader(JSON.parse(Buffer.from(h ?? '', 'base64url').toString()))
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect(await codeOf(verifyAccessToken(forged, now))).toBe('401:invalid_token');
  });
});

describe('passwords', () => {
  it('hashes with scrypt and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});

describe('pagination cursors', () => {
  const binding = { owner: claims.tenantId, list: 'users' };
  const key = { pk: 'TENANT#x', sk: 'USER#usr_1' };

  it('round-trips and is bound to its owner and list', async () => {
    const cursor = await encodeCursor(binding, key);
    expect(await decodeCursor(binding, cursor)).toEqual(key);
    expect(await codeOf(decodeCursor({ ...binding, owner: 'other' }, cursor))).toBe('400:invalid_cursor');
    expect(await codeOf(decodeCursor({ ...binding, list: 'api-keys' }, cursor))).toBe('400:invalid_cursor');
  });

  it('is opaque: nothing of the key can be read from it', async () => {
    const cursor = await encodeCursor(binding, key);
    // The key's values and its attribute names as JSON would write them ("pk" alone can occur by chance in
    // random bytes: a CI run met it).
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/TENANT|USER|usr_1|"pk"|"sk"/);
  });

  it('rejects tampering', async () => {
    const cursor = await encodeCursor(binding, key);
    const raw = Buffer.from(cursor, 'base64url');
    for (const index of [0, 13, raw.length - 1]) {
      const flipped = Buffer.from(raw);
      flipped[index] = (flipped[index] ?? 0) ^ 1;
      expect(await codeOf(decodeCursor(binding, flipped.toString('base64url')))).toBe('400:invalid_cursor');
    }
    expect(await codeOf(decodeCursor(binding, cursor.slice(0, 20)))).toBe('400:invalid_cursor');
    expect(await codeOf(decodeCursor(binding, 'not a cursor at all'))).toBe('400:invalid_cursor');
  });
});

describe('ids', () => {
  it('prefixes ULIDs and recognises them', () => {
    const id = newId('usr');
    expect(isId('usr', id)).toBe(true);
    expect(isId('key', id)).toBe(false);
    expect(isId('usr', 'usr_../../etc')).toBe(false);
    expect(isUuid(newTenantId())).toBe(true);
    expect(isUuid('not-a-uuid')).toBe(false);
  });

  it('makes a series of consecutive ids in one millisecond', () => {
    const series = newIdSeries('evt', 3);
    expect(series.slice(1)).toEqual(series.slice(0, -1).map(idAfter));
    expect(idAfter('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0NZ')).toBe('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0P0');
    expect(idAfter('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0N9')).toBe('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0NA');
    expect(idAfter('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0NH')).toBe('evt_01KB2ZQ7Y3X4F5G6H7J8K9M0NJ');
    expect(series.every((id) => isId('evt', id))).toBe(true);
    expect(new Set(series.map((id) => id.slice(0, 14))).size).toBe(1);
    expect([...series].sort()).toEqual(series);
    expect(new Set(series).size).toBe(3);
  });
});
