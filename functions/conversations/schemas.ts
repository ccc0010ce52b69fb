import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { idOf, instant, nonEmptyPatch, trimmed, lazySchema } from '../platform/validation';
import { customerId, customerRef } from '../customers/schemas';
import { CHANNELS, CONVERSATION_STATUSES, PRIORITIES, TAG_PATTERN, UNASSIGNED } from './conversation';
import { outboundText } from './outbound-text';

const tag = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(50), z.regex(TAG_PATTERN, 'must be a slug: letters, digits, - and _'));
const tags = z.array(tag).check(z.maxLength(20, 'at most 20 tags'));
const userId = idOf('usr', 'user');

export const ListConversationsQuery = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    status: z.optional(z.enum(CONVERSATION_STATUSES)),
    tag: z.optional(tag),
    channel: z.optional(z.enum(CHANNELS)),
    customer_id: z.optional(customerId),
    assignee_id: z.optional(
      z.union([userId, z.literal(UNASSIGNED)]).check(
        z.meta({
          description:
            "A user's id: that user's unresolved conversations (not with `status=resolved`). `none`: the " +
            'conversations nobody is assigned to, with any other filter.',
        }),
      ),
    ),
  }),
);

export const CreateConversationBody = lazySchema(() =>
  z.strictObject({
    channel: z.enum(CHANNELS),
    channel_account_id: z.optional(z.string().check(z.regex(/^\d{1,32}$/, 'must be a WhatsApp phone_number_id'))),
    customer: customerRef,
    tags: z.optional(tags),
    priority: z.optional(z.enum(PRIORITIES)),
    assignee_id: z.optional(z.nullable(userId)),
    message: z.optional(z.strictObject({ text: outboundText })),
  }),
);

export const UpdateConversationBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      status: z.optional(z.enum(CONVERSATION_STATUSES)),
      snoozed_until: z.optional(z.nullable(instant())),
      tags: z.optional(tags),
      assignee_id: z.optional(z.nullable(userId)),
      priority: z.optional(z.enum(PRIORITIES)),
      category: z.optional(z.nullable(trimmed(1, 50))),
    }),
  ),
);

export const SendMessageBody = lazySchema(() => z.strictObject({ text: outboundText }));
/** A note is read by the team only, but as text the same rules as a reply apply (readable, not blank). */
export const AddNoteBody = lazySchema(() => z.strictObject({ text: outboundText }));
export const EditNoteBody = lazySchema(() => z.strictObject({ text: outboundText }));
export const ListMessagesQuery = lazySchema(() => z.strictObject(pageQuery));
export const ListNotesQuery = lazySchema(() => z.strictObject(pageQuery));
