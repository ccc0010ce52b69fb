import { httpHandler, tenantPrincipal } from '../http/handler';
import { tenantView } from '../tenants/views';

/** Who am I: the credential's kind, role and tenant. Handy to check a key or token works. */
export const handler = httpHandler('auth-me', {}, async ({ principal }) => {
  const caller = tenantPrincipal(principal);
  const who =
    caller.kind === 'api_key' ? { key_id: caller.keyId } : { user_id: caller.userId, session_id: caller.sessionId };
  return { status: 200, body: { kind: caller.kind, role: caller.role, ...who, tenant: tenantView(caller.tenant) } };
});
