import { ACCESS_AUDIENCE, JWT_ISSUER, REFRESH_AUDIENCE } from '../platform/config';
import { unauthorized } from '../platform/errors';
import { newId } from '../platform/ids';
import { signingSecret } from '../platform/secrets';
import { epochSeconds } from '../platform/clock';

/**
 * jose, loaded by the first token a process signs or verifies (functions/auth/jose.ts says why); Node's
 * module map keeps it for the calls after.
 */
const loadJose = () => import('#jose');

/** Pinned: tokens with `none` or any other algorithm are refused by jwtVerify. */
const ALGORITHM = 'HS256';
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 60;

export interface SessionClaims {
  tenantId: string;
  userId: string;
  sessionId: string;
  jti: string;
}

async function sign(claims: SessionClaims, audience: string, now: Date, expiresAt: Date): Promise<string> {
  const { SignJWT } = await loadJose();
  return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setAudience(audience)
    .setSubject(claims.userId)
    .setJti(claims.jti)
    .setIssuedAt(epochSeconds(now))
    .setExpirationTime(epochSeconds(expiresAt))
    .sign(await signingSecret());
}

export async function issueAccessToken(claims: Omit<SessionClaims, 'jti'>, now: Date) {
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);
  return {
    token: await sign({ ...claims, jti: newId('ses').replace('ses_', 'jti_') }, ACCESS_AUDIENCE, now, expiresAt),
    expiresAt,
  };
}

/** Refresh tokens carry a different audience, so one can never be used as an access token. */
export const issueRefreshToken = (claims: SessionClaims, now: Date, sessionExpiresAt: Date) =>
  sign(claims, REFRESH_AUDIENCE, now, sessionExpiresAt);

async function verify(token: string, audience: string, now: Date): Promise<SessionClaims> {
  const { jwtVerify, errors: joseErrors } = await loadJose();
  try {
    const { payload } = await jwtVerify(token, await signingSecret(), {
      algorithms: [ALGORITHM],
      issuer: JWT_ISSUER,
      audience,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp', 'iat'],
    });
    const tenantId = payload.tid;
    const sessionId = payload.sid;
    if (typeof tenantId !== 'string' || typeof sessionId !== 'string' || !payload.sub || !payload.jti) {
      throw unauthorized('invalid_token', 'The token is malformed.');
    }
    return { tenantId, sessionId, userId: payload.sub, jti: payload.jti };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('token_expired', 'The token has expired.');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('invalid_token', 'The token is invalid.');
    throw error;
  }
}

export const verifyAccessToken = (token: string, now: Date) => verify(token, ACCESS_AUDIENCE, now);
export const verifyRefreshToken = (token: string, now: Date) => verify(token, REFRESH_AUDIENCE, now);
