// Public: the HTTP chain authenticates every request with it.
import { getMany } from '../platform/db';
import { tableName } from '../platform/config';
import { forbidden, unauthorized } from '../platform/errors';
import { isPlatformToken } from '../platform/secrets';
import { findApiKey, touchApiKey } from '../api-keys/store';
import { hashApiKey, isWellFormedApiKey, needsLastUsedRefresh } from '../api-keys/key';
import { getTenant, tenantFromItem, tenantKey } from '../tenants/store';
import type { Tenant } from '../tenants/tenant';
import { userFromItem, userKey } from '../users/store';
import { sessionFromItem, sessionKey } from './session-store';
import { isSessionActive, predatesCredentials } from './session-rules';
import { verifyAccessToken } from './tokens';
import type { TenantPrincipal } from './principal';

/** The token of `Authorization: Bearer <token>`; `credential` names what the route takes, for the 401. */
export function bearerToken(authorization: string | undefined, credential = 'an API key or access token'): string {
  if (!authorization)
    throw unauthorized('credentials_missing', `Send ${credential} as "Authorization: Bearer <token>".`);
  const [scheme = '', token, ...more] = authorization.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer')
    throw unauthorized('invalid_credentials', 'The Authorization header must use the Bearer scheme.');
  if (!token) throw unauthorized('credentials_missing', 'The Authorization header has no token after "Bearer".');
  if (more.length > 0)
    throw unauthorized('invalid_credentials', 'The Authorization header must be "Bearer <token>", with one token.');
  return token;
}

const wrongTenant = () =>
  forbidden('tenant_mismatch', 'The credential is not valid for the tenant named in X-Tenant-ID.');

function checkTenant(tenant: Tenant | undefined): Tenant {
  if (!tenant) throw wrongTenant();
  if (tenant.status === 'suspended') throw forbidden('tenant_suspended', 'This tenant is suspended.');
  return tenant;
}

/**
 * Resolves an API key or access token for the tenant of X-Tenant-ID, with strongly consistent reads, so
 * revocation and suspension are effective on the very next request: a key is one read (its item holds a
 * copy of the tenant, api-keys/store.ts), a token one BatchGetItem of its session, user and tenant.
 */
export async function authenticateTenant(
  authorization: string | undefined,
  tenantId: string,
  now: Date,
): Promise<TenantPrincipal> {
  const token = bearerToken(authorization);
  const table = tableName('main');

  if (token.startsWith('sk_')) {
    if (!isWellFormedApiKey(token))
      throw unauthorized('invalid_api_key', 'The API key is invalid or has been revoked.');
    const hash = hashApiKey(token);
    const found = await findApiKey(hash);
    if (!found) throw unauthorized('invalid_api_key', 'The API key is invalid or has been revoked.');
    const { key } = found;
    if (key.tenant_id !== tenantId) throw wrongTenant();
    // The key's copy of the tenant is rewritten with every change of the tenant; keys older than the copy
    // read the tenant itself.
    const tenant = checkTenant(found.tenant ?? (await getTenant(tenantId)));
    if (needsLastUsedRefresh(key, now)) await touchApiKey(hash, now.toISOString());
    return { kind: 'api_key', tenant, role: key.role, keyId: key.id };
  }

  const claims = await verifyAccessToken(token, now);
  if (claims.tenantId !== tenantId) throw wrongTenant();
  const [sessionItem, userItem, tenantItem] = await getMany(table, [
    sessionKey(tenantId, claims.sessionId),
    userKey(tenantId, claims.userId),
    tenantKey(tenantId),
  ]);
  const session = sessionItem && sessionFromItem(sessionItem);
  if (!session || session.user_id !== claims.userId || !isSessionActive(session, now)) {
    throw unauthorized('session_revoked', 'The session has ended; log in again.');
  }
  const user = userItem && userFromItem(userItem);
  if (!user || user.status !== 'active') throw unauthorized('user_disabled', 'This user is disabled.');
  if (predatesCredentials(session, user))
    throw unauthorized(
      'session_revoked',
      'The password was changed or the user disabled since this login, which ended the session; log in again.',
    );
  const tenant = checkTenant(tenantItem && tenantFromItem(tenantItem));
  return { kind: 'user', tenant, role: user.role, userId: user.id, sessionId: session.id };
}

export async function authenticatePlatform(authorization: string | undefined): Promise<void> {
  const token = bearerToken(authorization, 'the platform token');
  if (!(await isPlatformToken(token))) throw unauthorized('invalid_credentials', 'The platform token is invalid.');
}
