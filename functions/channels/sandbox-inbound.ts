import { httpHandler, tenantPrincipal } from '../http/handler';
import { requirePhone } from '../customers/customer';
import { receiveInbound } from '../conversations/service';
import { SandboxInboundBody } from './schemas';

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
    return { status: 201, body: { conversation: result.conversation, message: result.message } };
  },
);
