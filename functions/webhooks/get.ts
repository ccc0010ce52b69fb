import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { endpointOr404, endpointView } from './guards';

export const handler = httpHandler('webhooks-get', {}, async ({ params, principal }) => {
  const endpoint = await endpointOr404(tenantPrincipal(principal).tenant.id, params.id);
  return { status: 200, headers: etag(endpoint.version), body: endpointView(endpoint) };
});
