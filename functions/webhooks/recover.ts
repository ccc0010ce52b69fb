import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../platform/http';
import { ulidBound } from '../events/time';
import { endpointOr404 } from './guards';
import { replay } from './replay';
import { RecoverBody } from './schemas';
import { listDeliveries } from './store';

/** At most this many replays per call; the response says whether more remain. */
const MAX_REPLAYS = 1000;

/** Replays every failed delivery of this endpoint for events between `since` and `until` (default now). */
export const handler = httpHandler('webhooks-recover', { body: RecoverBody }, async ({ params, body, principal, now }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const endpoint = await endpointOr404(tenantId, params.id);
  const until = body.until ? new Date(body.until) : now;
  const since = new Date(body.since);
  if (since > until) throw badRequest('invalid_window', '`since` must not be after `until`.');
  const window = { webhookId: endpoint.id, status: 'failed' as const, fromId: ulidBound(since, 'low').replace('evt_', 'dlv_'), toId: ulidBound(until, 'high').replace('evt_', 'dlv_') };
  let replayed = 0;
  let cursor: string | undefined;
  do {
    const page = await listDeliveries(tenantId, window, { limit: 100, cursor });
    for (const delivery of page.items) {
      await replay(delivery, now);
      replayed++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && replayed < MAX_REPLAYS);
  return { status: 202, body: { replayed, has_more: cursor !== undefined, since: since.toISOString(), until: until.toISOString() } };
});
