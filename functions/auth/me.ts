import { httpHandler, tenantPrincipal } from '../platform/http';
import { tenantView } from '../tenants/views';

/** Who am I: the credential's kind, role and tenant. Handy to check a key or token works. */
export const handler = httpHandler('auth-me', {}, async ({ principal }) => {
  const caller = tenantPrincipal(principal);
  const { tenant, ...rest } = caller;
  return { status: 200, body: { ...rest, tenant: tenantView(tenant) } };
});
