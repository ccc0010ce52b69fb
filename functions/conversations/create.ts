import { unprocessable } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { listChannels } from '../channels/store';
import { requirePhone } from '../customers/customer';
import { assertAssignee } from './guards';
import { CreateConversationBody } from './schemas';
import { openConversation } from './service';
import { senderOf } from '../auth/principal';

export const handler = httpHandler('conversations-create', { body: CreateConversationBody }, async ({ body, principal, now }) => {
  const caller = tenantPrincipal(principal);
  const tenantId = caller.tenant.id;
  await assertAssignee(tenantId, body.assignee_id);
  let accountId: string | null = null;
  if (body.channel === 'whatsapp') {
    const numbers = (await listChannels(tenantId)).map((c) => c.phone_number_id);
    accountId = body.channel_account_id ?? (numbers.length === 1 ? (numbers[0] ?? null) : null);
    if (!accountId || !numbers.includes(accountId)) {
      throw unprocessable('channel_not_connected', 'Connect the WhatsApp number first (POST /channels/whatsapp), and name it in channel_account_id if there are several.');
    }
  }
  const phone = body.customer.phone !== undefined ? requirePhone(body.customer.phone, 'customer.phone') : undefined;
  const { conversation, message } = await openConversation(
    tenantId,
    { ...body, channel_account_id: accountId, customer: { ...body.customer, phone } },
    senderOf(caller),
    now,
  );
  return {
    status: 201,
    headers: { ...etag(conversation.version), Location: `/api/v1/conversations/${conversation.id}` },
    body: { ...conversation, messages: message ? [message] : [] },
  };
});
