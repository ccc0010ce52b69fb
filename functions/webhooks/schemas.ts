import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { instant, nonEmptyPatch, trimmed } from '../platform/validation';
import { EVENT_FILTERS, isEventFilter } from '../events/catalog';

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

export const CreateWebhookBody = z.strictObject({
  url,
  events,
  description: z.optional(trimmed(0, 500)),
  is_active: z._default(z.boolean(), true),
});

export const UpdateWebhookBody = nonEmptyPatch(
  z.strictObject({
    url: z.optional(url),
    events: z.optional(events),
    description: z.optional(z.nullable(trimmed(0, 500))),
    is_active: z.optional(z.boolean()),
  }),
);

export const ListWebhooksQuery = z.strictObject(pageQuery);
export const DeliveriesQuery = z.strictObject({
  ...pageQuery,
  status: z.optional(z.enum(['pending', 'succeeded', 'failed', 'cancelled'])),
});
export const RecoverBody = z.strictObject({ since: instant(), until: z.optional(instant()) });
