import { etag, httpHandler, ifMatchVersion } from '../http/handler';
import { notFound } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { UpdateTenantBody } from './schemas';
import { changeTenant } from './service';
import { tenantView } from './views';

export const handler = httpHandler(
  'tenants-update',
  { body: UpdateTenantBody },
  async ({ params, body, now, event }) => {
    const id = (params.id ?? '').toLowerCase();
    const ifMatch = ifMatchVersion(event);
    if (!isUuid(id)) throw notFound('The tenant');
    const tenant = await changeTenant(id, body, ifMatch, now);
    return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
  },
);
