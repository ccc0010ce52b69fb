/** The request bodies of the AI routes that read a whole conversation (see ./schemas.ts). */
import * as z from 'zod/mini';
import { lazySchema } from '../platform/validation';
import { messageText } from '../conversations/message-text';
import { conversationId, oneOf } from './schemas';

export const SuggestBody = lazySchema(() =>
  z
    .strictObject({
      conversation_id: z.optional(conversationId),
      messages: z.optional(
        z
          .array(
            z.strictObject({ direction: z._default(z.enum(['inbound', 'outbound']), 'inbound'), text: messageText }),
          )
          .check(z.minLength(1), z.maxLength(50)),
      ),
      count: z._default(z.int().check(z.minimum(1), z.maximum(5)), 3),
    })
    .check(z.refine(oneOf('conversation_id', 'messages'), 'give either `conversation_id` or `messages`')),
);

export const CategorizeBody = lazySchema(() =>
  z.strictObject({
    conversation_id: conversationId,
    apply: z._default(z.boolean(), false),
  }),
);
