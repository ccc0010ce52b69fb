import { DomainError } from '../platform/domain-error';
import { connectWhatsApp, type WhatsAppChannel } from './store';
import { verifyPhoneNumberAccess } from './whatsapp';

/** Channels of a tenant: connecting a WhatsApp Cloud API number. */

export interface WhatsAppConnection {
  phone_number_id: string;
  display_phone_number?: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
}

/** Connects a number after Graph confirms the token controls it. The token, app secret and verify token are never returned. */
export async function connectWhatsAppNumber(
  tenantId: string,
  input: WhatsAppConnection,
  now: Date,
): Promise<WhatsAppChannel> {
  const channel: WhatsAppChannel = {
    channel: 'whatsapp',
    tenant_id: tenantId,
    phone_number_id: input.phone_number_id,
    display_phone_number: input.display_phone_number ?? null,
    created_at: now.toISOString(),
  };
  if (!(await verifyPhoneNumberAccess(input.phone_number_id, input.access_token))) {
    throw DomainError.invalid(
      'whatsapp_credentials_invalid',
      'The Graph API did not accept this access token for this phone_number_id.',
    );
  }
  await connectWhatsApp(
    channel,
    { access_token: input.access_token, app_secret: input.app_secret },
    input.verify_token,
  );
  return channel;
}
