/**
 * The AI routes' request bodies. zod builds a schema as its module loads, so the bodies of suggest and
 * categorize, the routes that read a whole conversation, are in ./conversation-schemas.ts: analyze, the
 * largest AI bundle, carries only its own.
 */
import * as z from 'zod/mini';
import { idOf, lazySchema } from '../platform/validation';
import { messageText } from '../conversations/message-text';

export const conversationId = idOf('conv', 'conversation');
const messageId = idOf('msg', 'message');
export const oneOf = (a: string, b: string) => (body: Record<string, unknown>) =>
  (body[a] === undefined) !== (body[b] === undefined);

export const AnalyzeBody = lazySchema(() =>
  z
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
    ),
);
