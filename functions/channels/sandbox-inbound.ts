import { httpHandler, tenantPrincipal } from '../http/handler';
import { requirePhone } from '../customers/customer';
import { receiveInbound } from '../conversations/service';
import { SandboxInboundBody } from './schemas';
import { answerTapSafely } from '../reminders/taps';
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
      },
      now,
    );
    if (!result) return { status: 200, body: { duplicate: true } };
    const tap = tapOf(body.payload);
    if (tap) await answerTapSafely(tenantId, result, tap, now);
    return { status: 201, body: { conversation: result.conversation, message: result.message } };
  },
);
