import { etag, httpHandler } from '../http/handler';
import { notFound } from '../platform/errors';
import { isUuid } from '../platform/ids';
import { getTenant } from './store';
import { tenantView } from './views';

export const handler = httpHandler('tenants-get', {}, async ({ params }) => {
  const id = params.id ?? '';
  const tenant = isUuid(id) ? await getTenant(id.toLowerCase()) : undefined;
  if (!tenant) throw notFound('The tenant');
  return { status: 200, headers: etag(tenant.version), body: tenantView(tenant) };
});
