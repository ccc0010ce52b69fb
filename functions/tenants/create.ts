import { etag, httpHandler } from '../http/handler';
import { provisionTenant } from './service';
import { CreateTenantBody } from './schemas';
import { tenantView } from './views';

export const handler = httpHandler('tenants-create', { body: CreateTenantBody }, async ({ body, now }) => {
  const { tenant, adminUser, apiKey } = await provisionTenant(body, now);
  return {
    status: 201,
    headers: {
      'Cache-Control': 'no-store',
      ...etag(tenant.version),
      Location: `/api/v1/platform/tenants/${tenant.id}`,
    },
    body: { tenant: tenantView(tenant), admin_user: adminUser, api_key: apiKey },
  };
});
