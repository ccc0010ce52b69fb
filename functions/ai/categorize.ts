import { httpHandler, tenantPrincipal } from '../http/handler';
import { CategorizeBody } from './conversation-schemas';
import { categorize } from './service';

/** The conversation's category and suggested tags; `apply: true` sets them (emitting conversation.updated). */
export const handler = httpHandler('ai-categorize', { body: CategorizeBody }, async ({ body, principal, now }) => ({
  status: 200,
  body: await categorize(tenantPrincipal(principal).tenant, body.conversation_id, body.apply, now),
}));
