import * as z from 'zod/mini';
import { idOf } from '../platform/validation';
import { messageText } from '../conversations/schemas';

const conversationId = idOf('conv', 'conversation');
const messageId = idOf('msg', 'message');
const oneOf = (a: string, b: string) => (body: Record<string, unknown>) =>
  (body[a] === undefined) !== (body[b] === undefined);

export const AnalyzeBody = z
  .strictObject({
    text: z.optional(messageText),
    conversation_id: z.optional(conversationId),
    message_id: z.optional(messageId),
  })
  .check(
    z.refine(oneOf('text', 'conversation_id'), 'give either `text`, or `conversation_id` with `message_id`'),
    z.refine(
      (b) => (b.conversation_id === undefined) === (b.message_id === undefined),
      '`conversation_id` and `message_id` go together',
    ),
  );

export const SuggestBody = z
  .strictObject({
    conversation_id: z.optional(conversationId),
    messages: z.optional(
      z
        .array(z.strictObject({ direction: z._default(z.enum(['inbound', 'outbound']), 'inbound'), text: messageText }))
        .check(z.minLength(1), z.maxLength(50)),
    ),
    count: z._default(z.int().check(z.minimum(1), z.maximum(5)), 3),
  })
  .check(z.refine(oneOf('conversation_id', 'messages'), 'give either `conversation_id` or `messages`'));

export const CategorizeBody = z.strictObject({
  conversation_id: conversationId,
  apply: z._default(z.boolean(), false),
});
