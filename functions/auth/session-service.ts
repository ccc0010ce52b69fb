import { getMany } from '../platform/db';
import { tableName } from '../platform/config';
import { forbidden, unauthorized } from '../platform/errors';
import { newId } from '../platform/ids';
import { tenantFromItem, tenantKey } from '../tenants/store';
import { userFromItem, userKey } from '../users/store';
import { toPublicUser, type User } from '../users/user';
import { SESSION_LIFETIME_MS, predatesCredentials, refreshOutcome, type Session } from './session-rules';
import { createSession, revokeSession, rotateRefreshJti, sessionFromItem, sessionKey } from './session-store';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken, issueRefreshToken, verifyRefreshToken } from './tokens';

const newJti = () => newId('ses').replace('ses_', 'rt_');

async function tokenResponse(session: Session, user: User, refreshJti: string, now: Date) {
  const claims = { tenantId: session.tenant_id, userId: session.user_id, sessionId: session.id };
  const access = await issueAccessToken(claims, now);
  const refreshToken = await issueRefreshToken({ ...claims, jti: refreshJti }, now, new Date(session.expires_at));
  return {
    token_type: 'Bearer',
    access_token: access.token,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: access.expiresAt.toISOString(),
    refresh_token: refreshToken,
    refresh_expires_at: session.expires_at,
    session_id: session.id,
    tenant_id: session.tenant_id,
    user: toPublicUser(user),
  };
}

export async function startSession(user: User, now: Date) {
  const session: Session = {
    id: newId('ses'),
    tenant_id: user.tenant_id,
    user_id: user.id,
    refresh_jti: newJti(),
    created_at: now.toISOString(),
    credentials_at: user.credentials_changed_at ?? null,
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
  };
  await createSession(session);
  return tokenResponse(session, user, session.refresh_jti, now);
}

const ended = () => unauthorized('session_revoked', 'The session has ended; log in again.');

/**
 * Rotation with reuse detection: presenting any refresh token but the latest revokes the whole
 * session, so a stolen token is useless once either party refreshes.
 */
export async function refreshSession(refreshToken: string, tenantHeader: string | undefined, now: Date) {
  const claims = await verifyRefreshToken(refreshToken, now);
  if (tenantHeader && tenantHeader !== claims.tenantId) {
    throw forbidden('tenant_mismatch', 'The credential is not valid for the tenant named in X-Tenant-ID.');
  }
  // Session, user and tenant in one round trip, all checked before the token is rotated.
  const [sessionItem, userItem, tenantItem] = await getMany(tableName('main'), [
    sessionKey(claims.tenantId, claims.sessionId),
    userKey(claims.tenantId, claims.userId),
    tenantKey(claims.tenantId),
  ]);
  const session = sessionItem && sessionFromItem(sessionItem);
  if (!session || session.user_id !== claims.userId) throw ended();
  const outcome = refreshOutcome(session, claims.jti, now);
  if (outcome === 'expired') throw unauthorized('session_expired', 'The session has expired; log in again.');
  if (outcome === 'revoked') throw ended();
  const user = userItem && userFromItem(userItem);
  if (!user || user.status !== 'active') throw unauthorized('user_disabled', 'This user is disabled.');
  if (predatesCredentials(session, user)) throw ended();
  if (!tenantItem || tenantFromItem(tenantItem).status !== 'active')
    throw forbidden('tenant_suspended', 'This tenant is suspended.');
  const next = newJti();
  if (outcome === 'reused' || !(await rotateRefreshJti(session, claims.jti, next))) {
    await revokeSession(session.tenant_id, session.id, 'refresh_reuse', now.toISOString());
    throw unauthorized('refresh_token_reused', 'This refresh token was already used; the session has been revoked.');
  }
  return tokenResponse(session, user, next, now);
}

export const endSession = (tenantId: string, sessionId: string, now: Date) =>
  revokeSession(tenantId, sessionId, 'logout', now.toISOString());
