import { httpHandler, tenantPrincipal } from '../http/handler';
import { RecoverBody } from './schemas';
import { recoverDeliveries } from './service';

/** Replays every failed delivery of this endpoint for events between `since` and `until` (no end by default). */
export const handler = httpHandler(
  'webhooks-recover',
  { body: RecoverBody },
  async ({ params, body, principal, now }) => {
    const window = { since: new Date(body.since), until: body.until ? new Date(body.until) : undefined };
    const result = await recoverDeliveries(tenantPrincipal(principal).tenant.id, params.id, window, now);
    return {
      status: 202,
      body: {
        replayed: result.replayed,
        skipped: result.skipped,
        has_more: result.hasMore,
        since: result.since.toISOString(),
        until: result.until.toISOString(),
      },
    };
  },
);
