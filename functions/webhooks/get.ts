import { endpointRecord } from './webhook';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { getWebhook } from './service';

export const handler = httpHandler('webhooks-get', {}, async ({ params, principal }) => {
  const caller = tenantPrincipal(principal);
  const endpoint = await getWebhook(caller.tenant.id, params.id);
  return { status: 200, headers: etag(endpoint.version), body: endpointRecord(endpoint, caller.role) };
});
