import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { SendMessageBody } from './schemas';
import { sendMessage } from './service';
import { senderOf } from '../auth/principal';

/** 202: the message is queued; its status moves to sent, delivered, read or failed as receipts arrive. */
export const handler = httpHandler(
  'messages-send',
  { body: SendMessageBody },
  async ({ params, body, principal, now }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('conv', id)) throw notFound('The conversation');
    const message = await sendMessage(caller.tenant.id, id, body.text, senderOf(caller), now);
    return { status: 202, headers: { Location: `/api/v1/conversations/${id}/messages` }, body: message };
  },
);
