import { httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { deleteWebhook } from './service';

/** Deleting an endpoint stops its pending retries; its delivery history stays readable. */
export const handler = httpHandler('webhooks-delete', {}, async ({ params, principal, event }) => {
  await deleteWebhook(tenantPrincipal(principal).tenant.id, params.id, ifMatchVersion(event));
  return { status: 204 };
});
