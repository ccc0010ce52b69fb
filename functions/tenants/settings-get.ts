import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { getTenant } from './store';
import { tenantView } from './views';

/** The caller's own tenant: its name, time zone and default language (what Settings › Tenant shows). */
export const handler = httpHandler('settings-get', {}, async ({ principal }) => {
  const tenant = await getTenant(tenantPrincipal(principal).tenant.id);
  if (!tenant) throw notFound('The tenant');
  return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
});
