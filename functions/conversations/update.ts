import { notFound } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { UpdateConversationBody } from './schemas';
import { updateConversation } from './service';

export const handler = httpHandler(
  'conversations-update',
  { body: UpdateConversationBody },
  async ({ params, body, principal, now, event }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const id = params.id ?? '';
    if (!isId('conv', id)) throw notFound('The conversation');
    const conversation = await updateConversation(tenantId, id, body, ifMatchVersion(event), now);
    return { status: 200, headers: etag(conversation.version), body: conversation };
  },
);
