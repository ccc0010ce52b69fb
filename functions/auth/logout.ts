import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { EmptyBody } from './schemas';
import { endSession } from './session-service';

/** Revokes the caller's session: its access token and refresh token fail from the next request on. */
export const handler = httpHandler('auth-logout', { body: EmptyBody }, async ({ principal, now }) => {
  const caller = tenantPrincipal(principal);
  if (caller.kind !== 'user')
    throw badRequest('not_a_session', 'Logout ends a login session; revoke an API key with DELETE /api-keys/{id}.');
  await endSession(caller.tenant.id, caller.sessionId, now);
  return { status: 204 };
});
