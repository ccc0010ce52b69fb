import { httpHandler, tenantPrincipal } from '../http/handler';
import { requirePhone } from '../customers/customer';
import { receiveInbound } from '../conversations/service';
import { SandboxInboundBody } from './schemas';
import { answerRedeliveredTap, answerTapSafely } from '../reminders/taps';
import { tapOf } from '../reminders/reminder';

/** Injects a customer message on the sandbox channel, through the same path as a WhatsApp message. */
export const handler = httpHandler(
  'sandbox-inbound',
  { body: SandboxInboundBody },
  async ({ body, principal, now }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const result = await receiveInbound(
      tenantId,
      'sandbox',
      null,
      {
        phone: requirePhone(body.from, 'from'),
        name: body.name ?? null,
        text: body.text,
        providerId: body.provider_message_id ?? null,
        sentAt: body.sent_at ? new Date(body.sent_at) : undefined,
      },
      now,
    );
    const tap = tapOf(body.payload);
    if (!result) {
      if (tap && body.provider_message_id)
        await answerRedeliveredTap(tenantId, 'sandbox', body.provider_message_id, tap, now);
      return { status: 200, body: { duplicate: true } };
    }
    if (tap) await answerTapSafely(tenantId, result, tap, now);
    return { status: 201, body: { conversation: result.conversation, message: result.message } };
  },
);
