// Public: the API schemas of channels, used by the event catalog.
import * as z from 'zod/mini';
import { defineContract, named, tenantId, timestamp } from '../platform/api-contract';
import { Conversation, Message } from '../conversations/contract';

const whatsAppFields = {
  channel: z.literal('whatsapp'),
  tenant_id: tenantId,
  phone_number_id: z.string().check(z.meta({ pattern: '^\\d{1,32}$', examples: ['106540352242922'] })),
  display_phone_number: z.nullable(z.string()),
  waba_id: z
    .nullable(z.string())
    .check(z.meta({ description: 'The WhatsApp Business Account holding the number and its message templates.' })),
  status: z.enum(['active', 'needs_reauthorization']).check(
    z.meta({
      description: '`needs_reauthorization`: Meta refused the token; nothing is sent until the number is reconnected.',
    }),
  ),
  created_at: timestamp,
};

export const WhatsAppChannel = named('WhatsAppChannel', z.object(whatsAppFields));
export const SandboxChannel = named('SandboxChannel', z.object({ channel: z.literal('sandbox') }));
export const ChannelList = named(
  'ChannelList',
  z.object({ data: z.array(z.discriminatedUnion('channel', [SandboxChannel, WhatsAppChannel])) }),
);
export const WhatsAppSignupConfig = named(
  'WhatsAppSignupConfig',
  z.object({
    available: z.boolean().check(z.meta({ description: 'Whether this deployment offers Embedded Signup.' })),
    app_id: z.nullable(z.string()).check(z.meta({ description: 'The platform\u2019s Meta app.' })),
    config_id: z.nullable(z.string()).check(z.meta({ description: 'Its Embedded Signup configuration.' })),
    graph_version: z.string(),
  }),
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
  z.object({
    queued: z
      .int()
      .check(z.meta({ description: 'Parts of the payload queued: one per business number (more when large).' })),
  }),
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
      'Connects a number with a long-lived business token. With the platform\u2019s Meta app (the usual case), Meta is asked whether the ' +
      'token is valid, long-lived and has the WhatsApp permissions, and the app is subscribed to the account (`waba_id`); in every case ' +
      'the Graph API must confirm that the token controls the number (422 otherwise). A number served by the tenant\u2019s own Meta app ' +
      'gives that app\u2019s `app_secret` and a `verify_token` instead. Secrets are encrypted and never returned.',
    responses: { 201: { description: 'The connected number.', body: ConnectedWhatsApp } },
    errors: {
      409: ['phone_number_taken'],
      422: [
        'whatsapp_credentials_invalid',
        'whatsapp_token_unsuitable',
        'whatsapp_app_not_configured',
        'whatsapp_subscription_failed',
      ],
    },
    requestExample: {
      phone_number_id: '106540352242922',
      waba_id: '102290129340398',
      access_token: 'EAAG…',
    },
  },
  'channels-whatsapp-signup-config': {
    operationId: 'getWhatsAppSignupConfig',
    summary: 'How to run Embedded Signup',
    description:
      'What a browser needs to run Meta\u2019s Embedded Signup with the platform\u2019s Meta app: its id, its signup configuration and ' +
      'the Graph API version; `available: false` when the deployment has none (then connect with a token).',
    responses: { 200: { description: 'The signup settings.', body: WhatsAppSignupConfig } },
  },
  'channels-whatsapp-embedded-signup': {
    operationId: 'connectWhatsAppByEmbeddedSignup',
    summary: 'Connect a WhatsApp number through Embedded Signup',
    description:
      'Finishes Meta\u2019s Embedded Signup, run in the dashboard with the platform\u2019s Meta app: the OAuth `code` is exchanged for a ' +
      'business integration token, which is checked, and the app is subscribed to the account\u2019s webhooks; then the number is ' +
      'connected as by `POST /channels/whatsapp`.',
    responses: { 201: { description: 'The connected number.', body: ConnectedWhatsApp } },
    errors: {
      409: ['phone_number_taken'],
      422: [
        'whatsapp_signup_code_invalid',
        'whatsapp_credentials_invalid',
        'whatsapp_token_unsuitable',
        'whatsapp_app_not_configured',
        'whatsapp_subscription_failed',
      ],
    },
    requestExample: { code: 'AQBx…', waba_id: '102290129340398', phone_number_id: '106540352242922' },
  },
  'sandbox-inbound': {
    operationId: 'injectSandboxMessage',
    summary: 'Inject a customer message (sandbox)',
    description:
      'A customer message on the sandbox channel, through the same code path as a WhatsApp message: it joins the customer\u2019s unresolved ' +
      'conversation or opens a new one. A small file (`media`, base64, at most 150 KB, WhatsApp\u2019s types) is stored at once, as a ' +
      'WhatsApp customer\u2019s would be after its copy. The sandbox provider accepts every outbound message, except text containing `[fail]`.',
    responses: {
      201: { description: 'The conversation and the received message.', body: InboundMessage },
      200: { description: 'A repeated `provider_message_id`: nothing changed.', body: DuplicateInbound },
    },
    errors: { 409: ['concurrent_update'], 422: ['invalid_phone', 'unsupported_media'] },
    requestExample: { from: '+4915112345678', name: 'Maria', text: 'Hi! Can I book a cleaning next Tuesday?' },
  },
  'whatsapp-webhook-verify': {
    operationId: 'verifyWhatsAppWebhook',
    summary: 'WhatsApp webhook verification (Meta)',
    description:
      'Meta\u2019s subscription handshake: echoes `hub.challenge` when `hub.verify_token` is the platform app\u2019s (or one a tenant configured for its own app).',
    responses: { 200: { description: 'The challenge, as text.', text: z.string() } },
    errors: { 403: ['verification_failed'] },
  },
  'whatsapp-webhook': {
    operationId: 'receiveWhatsAppWebhook',
    summary: 'WhatsApp webhook (Meta)',
    description:
      'Messages, statuses and reactions from the WhatsApp Cloud API, verified once with `X-Hub-Signature-256` against the platform app\u2019s ' +
      'secret (or, for numbers on a tenant\u2019s own app, that app\u2019s). A valid payload (up to 4 MB) is always answered 200 at once: it is ' +
      'queued, and routed to tenants by `metadata.phone_number_id` in the background; items that cannot be used are skipped and counted.',
    headers: {
      'X-Hub-Signature-256': { description: '`sha256=` + hex HMAC-SHA256 of the raw body with the app secret.' },
    },
    responses: { 200: { description: 'How many parts of the payload were queued.', body: WhatsAppWebhookResult } },
    errors: { 401: ['invalid_signature'] },
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
