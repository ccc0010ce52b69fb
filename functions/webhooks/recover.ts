import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { ulidBound } from '../events/time';
import { endpointOr404 } from './guards';
import { replayIfFinished } from './replay';
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
  let skipped = 0;
  let cursor: string | undefined;
  do {
    const page = await listDeliveries(tenantId, window, { limit: 100, cursor });
    for (const delivery of page.items) {
      // One that is no longer failed (replayed meanwhile by someone else) is skipped, not fatal.
      if (await replayIfFinished(delivery, now)) replayed++;
      else skipped++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && replayed + skipped < MAX_REPLAYS);
  return { status: 202, body: { replayed, skipped, has_more: cursor !== undefined, since: since.toISOString(), until: until.toISOString() } };
});
