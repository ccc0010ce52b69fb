import { endpointRecord } from './webhook';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { UpdateWebhookBody } from './schemas';
import { updateWebhook } from './service';

/** `is_active: false` stops deliveries at once: nothing new is queued, and pending retries are dropped. */
export const handler = httpHandler(
  'webhooks-update',
  { body: UpdateWebhookBody },
  async ({ params, body, principal, now, event }) => {
    const endpoint = await updateWebhook(
      tenantPrincipal(principal).tenant.id,
      params.id,
      body,
      ifMatchVersion(event),
      now,
    );
    return {
      status: 200,
      headers: etag(endpoint.version),
      body: endpointRecord(endpoint, tenantPrincipal(principal).role),
    };
  },
);
