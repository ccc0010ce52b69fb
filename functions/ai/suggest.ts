import { httpHandler, tenantPrincipal } from '../http/handler';
import { SuggestBody } from './conversation-schemas';
import { suggest } from './service';

/** Reply suggestions grounded in the conversation, the customer's name and their next booking. */
export const handler = httpHandler('ai-suggest', { body: SuggestBody }, async ({ body, principal, now }) => ({
  status: 200,
  body: await suggest(tenantPrincipal(principal).tenant, body, now),
}));
