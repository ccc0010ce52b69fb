import { httpHandler, tenantPrincipal } from '../http/handler';
import { ConnectWhatsAppBody } from './schemas';
import { connectWhatsAppNumber } from './service';

/**
 * Connects a WhatsApp Cloud API number, after Graph confirms the token controls it. The token, app secret
 * and verify token are never returned.
 */
export const handler = httpHandler(
  'channels-connect-whatsapp',
  { body: ConnectWhatsAppBody },
  async ({ body, principal, now }) => {
    const channel = await connectWhatsAppNumber(tenantPrincipal(principal).tenant.id, body, now);
    return { status: 201, body: { ...channel, webhook_path: '/api/v1/channels/whatsapp/webhook' } };
  },
);
