import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { getWebhook } from './service';

export const handler = httpHandler('webhooks-get', {}, async ({ params, principal }) => {
  const endpoint = await getWebhook(tenantPrincipal(principal).tenant.id, params.id);
  return { status: 200, headers: etag(endpoint.version), body: endpoint };
});
