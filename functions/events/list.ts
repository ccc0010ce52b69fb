import * as z from 'zod/mini';
import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { pageQuery, toPage } from '../platform/pagination';
import { idOf, instant } from '../platform/validation';
import { EVENT_FILTERS, isEventFilter } from './catalog';
import { listEvents } from './store';
import { idRange } from './time';

const ListEventsQuery = z.strictObject({
  ...pageQuery,
  type: z.optional(
    z
      .string()
      .check(
        z.refine(isEventFilter, 'must be an event type or one of *, conversation.*, booking.*, payment.*'),
        z.meta({ enum: EVENT_FILTERS }),
      ),
  ),
  since: z.optional(instant()),
  until: z.optional(instant()),
  /** Resume after an event seen (a realtime client after a drop): only events with a later id, read strongly consistent. */
  after: z.optional(idOf('evt', 'event')),
});

/** Pull what a webhook may have missed: the tenant's events of the last 30 days, newest first. */
export const handler = httpHandler('events-list', { query: ListEventsQuery }, async ({ query, principal }) => {
  const since = query.since ? new Date(query.since) : undefined;
  const until = query.until ? new Date(query.until) : undefined;
  if (since && until && since > until) throw badRequest('invalid_query', '`since` must not be after `until`.');
  const page = await listEvents(tenantPrincipal(principal).tenant.id, {
    type: query.type,
    ...idRange(since, until),
    afterId: query.after,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
