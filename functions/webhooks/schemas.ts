import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { idOf, instant, nonEmptyPatch, trimmed, lazySchema } from '../platform/validation';
import { EVENT_FILTERS, EVENT_TYPES, isEventFilter } from '../events/catalog';

const url = z.string().check(z.minLength(1), z.maxLength(4096));
const events = z
  .array(
    z
      .string()
      .check(
        z.refine(isEventFilter, 'must be an event type or one of *, conversation.*, booking.*, payment.*'),
        z.meta({ enum: EVENT_FILTERS }),
      ),
  )
  .check(z.minLength(1, 'subscribe to at least one event type'), z.maxLength(30));

export const CreateWebhookBody = lazySchema(() =>
  z.strictObject({
    url,
    events,
    description: z.optional(trimmed(0, 500)),
    is_active: z._default(z.boolean(), true),
  }),
);

export const UpdateWebhookBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      url: z.optional(url),
      events: z.optional(events),
      description: z.optional(z.nullable(trimmed(0, 500))),
      is_active: z.optional(z.boolean()),
    }),
  ),
);

export const ListWebhooksQuery = lazySchema(() => z.strictObject(pageQuery));
/** Filters of a delivery list; `since`/`until` bound the event's time, as in a recovery. */
const deliveryFilters = {
  ...pageQuery,
  status: z.optional(z.enum(['pending', 'succeeded', 'failed', 'cancelled'])),
  event_type: z.optional(z.enum(EVENT_TYPES)),
  since: z.optional(instant()),
  until: z.optional(instant()),
};
export const DeliveriesQuery = lazySchema(() => z.strictObject(deliveryFilters));
/** The failed-delivery view also narrows to one endpoint (deleted ones included: their deliveries stay). */
export const TenantDeliveriesQuery = lazySchema(() =>
  z.strictObject({
    ...deliveryFilters,
    webhook_id: z.optional(idOf('whk', 'webhook endpoint')),
  }),
);
/** A delivery list's query as the service takes it. */
export const deliveryListFilter = (query: z.infer<typeof DeliveriesQuery>) => ({
  status: query.status,
  eventType: query.event_type,
  since: query.since === undefined ? undefined : new Date(query.since),
  until: query.until === undefined ? undefined : new Date(query.until),
});
export const RecoverBody = lazySchema(() => z.strictObject({ since: instant(), until: z.optional(instant()) }));
