import * as z from 'zod/mini';
import { defineContract, named, tenantId, timestamp } from '../platform/api-contract';
import { Conversation, Message } from '../conversations/contract';

const whatsAppFields = {
  channel: z.literal('whatsapp'),
  tenant_id: tenantId,
  phone_number_id: z.string().check(z.meta({ pattern: '^\\d{1,32}$', examples: ['106540352242922'] })),
  display_phone_number: z.nullable(z.string()),
  created_at: timestamp,
};

export const WhatsAppChannel = named('WhatsAppChannel', z.object(whatsAppFields));
export const SandboxChannel = named('SandboxChannel', z.object({ channel: z.literal('sandbox') }));
export const ChannelList = named(
  'ChannelList',
  z.object({ data: z.array(z.discriminatedUnion('channel', [SandboxChannel, WhatsAppChannel])) }),
);
export const ConnectedWhatsApp = named(
  'ConnectedWhatsApp',
  z.object({
    ...whatsAppFields,
    webhook_path: z
      .string()
      .check(
        z.meta({ description: 'Set the Meta app\u2019s callback URL to the API\u2019s base URL plus this path.' }),
      ),
  }),
);
export const InboundMessage = named('InboundMessage', z.object({ conversation: Conversation, message: Message }));
export const DuplicateInbound = named(
  'DuplicateInbound',
  z
    .object({ duplicate: z.literal(true) })
    .check(z.meta({ description: 'This provider_message_id was already received: nothing changed.' })),
);
export const WhatsAppWebhookResult = named(
  'WhatsAppWebhookResult',
  z.object({ received: z.int(), duplicates: z.int(), receipts: z.int(), ignored: z.int() }),
);

export const contract = defineContract({
  'channels-list': {
    operationId: 'listChannels',
    summary: 'List channels',
    description: 'The sandbox, always there, and the connected WhatsApp numbers (never their secrets).',
    responses: { 200: { description: 'The channels.', body: ChannelList } },
  },
  'channels-connect-whatsapp': {
    operationId: 'connectWhatsApp',
    summary: 'Connect a WhatsApp number',
    description:
      'The API first asks the Graph API whether the token controls the number (422 otherwise). The access token and app secret are ' +
      'encrypted and never returned. Set the Meta app\u2019s callback URL to `/api/v1/channels/whatsapp/webhook` with the verify token given here.',
    responses: { 201: { description: 'The connected number.', body: ConnectedWhatsApp } },
    errors: { 409: ['phone_number_taken'], 422: ['whatsapp_credentials_invalid'] },
    requestExample: {
      phone_number_id: '106540352242922',
      display_phone_number: '+49 151 12345678',
      access_token: 'EAAG…',
      app_secret: 'c0ffee…',
      verify_token: 'a-long-verify-token',
    },
  },
  'sandbox-inbound': {
    operationId: 'injectSandboxMessage',
    summary: 'Inject a customer message (sandbox)',
    description:
      'A customer message on the sandbox channel, through the same code path as a WhatsApp message: it joins the customer\u2019s unresolved ' +
      'conversation or opens a new one. The sandbox provider accepts every outbound message, except text containing `[fail]`.',
    responses: {
      201: { description: 'The conversation and the received message.', body: InboundMessage },
      200: { description: 'A repeated `provider_message_id`: nothing changed.', body: DuplicateInbound },
    },
    errors: { 409: ['concurrent_update'], 422: ['invalid_phone'] },
    requestExample: { from: '+4915112345678', name: 'Maria', text: 'Hi! Can I book a cleaning next Tuesday?' },
  },
  'whatsapp-webhook-verify': {
    operationId: 'verifyWhatsAppWebhook',
    summary: 'WhatsApp webhook verification (Meta)',
    description:
      'Meta\u2019s subscription handshake: echoes `hub.challenge` when `hub.verify_token` is one a tenant configured.',
    responses: { 200: { description: 'The challenge, as text.', text: z.string() } },
    errors: { 403: ['verification_failed'] },
  },
  'whatsapp-webhook': {
    operationId: 'receiveWhatsAppWebhook',
    summary: 'WhatsApp webhook (Meta)',
    description:
      'Messages and delivery statuses from the WhatsApp Cloud API, routed to tenants by `metadata.phone_number_id` and verified with ' +
      '`X-Hub-Signature-256` against the app secret of every number named. Numbers nobody connected are ignored, and so are repeated messages (same `wamid`).',
    headers: {
      'X-Hub-Signature-256': { description: '`sha256=` + hex HMAC-SHA256 of the raw body with the app secret.' },
    },
    responses: { 200: { description: 'What was done with the payload.', body: WhatsAppWebhookResult } },
    errors: { 401: ['invalid_signature'], 409: ['concurrent_update'], 422: ['too_many_numbers'] },
    requestExample: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: '106540352242922', display_phone_number: '4915112345678' },
                contacts: [{ wa_id: '4915112345678', profile: { name: 'Maria' } }],
                messages: [
                  {
                    id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
                    from: '4915112345678',
                    timestamp: '1767225600',
                    type: 'text',
                    text: { body: 'Hello' },
                  },
                ],
              },
            },
          ],
        },
      ],
    },
  },
});
