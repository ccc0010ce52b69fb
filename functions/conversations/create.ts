import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { senderOf } from '../auth/principal';
import { CreateConversationBody } from './schemas';
import { openConversation } from './service';

export const handler = httpHandler(
  'conversations-create',
  { body: CreateConversationBody },
  async ({ body, principal, now }) => {
    const caller = tenantPrincipal(principal);
    const { conversation, message } = await openConversation(caller.tenant.id, body, senderOf(caller), now);
    return {
      status: 201,
      headers: { ...etag(conversation.version), Location: `/api/v1/conversations/${conversation.id}` },
      body: { ...conversation, messages: message ? [message] : [] },
    };
  },
);
