import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { UpdateSettingsBody } from './schemas';
import { changeTenant } from './service';
import { tenantView } from './views';

/** An admin changes their own tenant's name, time zone or default language (never its plan or status). */
export const handler = httpHandler(
  'settings-update',
  { body: UpdateSettingsBody },
  async ({ body, principal, now, event }) => {
    const tenant = await changeTenant(tenantPrincipal(principal).tenant.id, body, ifMatchVersion(event), now);
    return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
  },
);
