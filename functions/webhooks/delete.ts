import { httpHandler, tenantPrincipal } from '../http/handler';
import { deleteWebhook } from './service';

/** Deleting an endpoint stops its pending retries; its delivery history stays readable. */
export const handler = httpHandler('webhooks-delete', {}, async ({ params, principal }) => {
  await deleteWebhook(tenantPrincipal(principal).tenant.id, params.id);
  return { status: 204 };
});
