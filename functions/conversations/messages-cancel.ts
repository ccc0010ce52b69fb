import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { cancelScheduledMessage } from './service';

/** Cancels a scheduled message (`send_at`) that has not gone yet. */
export const handler = httpHandler('messages-cancel', {}, async ({ params, principal, now }) => {
  const conversationId = params.id ?? '';
  const messageId = params.message_id ?? '';
  if (!isId('conv', conversationId) || !isId('msg', messageId)) throw notFound('The message');
  const message = await cancelScheduledMessage(
    { tenant_id: tenantPrincipal(principal).tenant.id, conversation_id: conversationId, message_id: messageId },
    now,
  );
  return { status: 200, body: message };
});
