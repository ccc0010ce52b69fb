import { unprocessable } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { verifyPhoneNumberAccess } from './whatsapp';
import { ConnectWhatsAppBody } from './schemas';
import { connectWhatsApp, type WhatsAppChannel } from './store';

/**
 * Connects a WhatsApp Cloud API number, after Graph confirms the token controls it. The token, app secret
 * and verify token are never returned.
 */
export const handler = httpHandler('channels-connect-whatsapp', { body: ConnectWhatsAppBody }, async ({ body, principal, now }) => {
  const channel: WhatsAppChannel = {
    channel: 'whatsapp',
    tenant_id: tenantPrincipal(principal).tenant.id,
    phone_number_id: body.phone_number_id,
    display_phone_number: body.display_phone_number ?? null,
    created_at: now.toISOString(),
  };
  if (!(await verifyPhoneNumberAccess(body.phone_number_id, body.access_token))) {
    throw unprocessable('whatsapp_credentials_invalid', 'The Graph API did not accept this access token for this phone_number_id.');
  }
  await connectWhatsApp(channel, { access_token: body.access_token, app_secret: body.app_secret }, body.verify_token);
  return { status: 201, body: { ...channel, webhook_path: '/api/v1/channels/whatsapp/webhook' } };
});
