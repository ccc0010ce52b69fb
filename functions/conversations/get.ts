import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { getConversationWithMessages } from './store';
import { withDownloadUrls } from '../media/downloads';

/** The conversation with its 20 newest messages, in one DynamoDB Query. */
export const handler = httpHandler('conversations-get', {}, async ({ params, principal, now }) => {
  const id = params.id ?? '';
  const found = isId('conv', id)
    ? await getConversationWithMessages(tenantPrincipal(principal).tenant.id, id)
    : undefined;
  if (!found) throw notFound('The conversation');
  return {
    status: 200,
    headers: etag(found.conversation.version),
    body: {
      ...found.conversation,
      messages: await withDownloadUrls(found.messages, now),
      messages_has_more: found.hasMoreMessages,
    },
  };
});
