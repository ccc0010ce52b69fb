import { createHmac, randomUUID } from 'node:crypto';
import { call, WHATSAPP_APP_SECRET, type ApiResponse } from './api';

/**
 * Meta's WhatsApp webhooks as the Cloud API documents them (entry[].changes[].value with `messages` or
 * `statuses`), signed the way Meta signs them (`X-Hub-Signature-256`: HMAC-SHA256 of the raw body with
 * the app secret). Shared by the tests that play Meta's part.
 */

/** The `X-Hub-Signature-256` value of a raw body. */
export const signWhatsApp = (raw: string, appSecret = WHATSAPP_APP_SECRET) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

/** The webhook envelope for one number; `value` carries `messages`/`contacts` or `statuses`. */
export const whatsAppWebhook = (phoneNumberId: string, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA_ID',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
            ...value,
          },
        },
      ],
    },
  ],
});

/** An inbound text message from `from` (a wa_id: digits, no `+`). */
export const textMessage = (from: string, text: string, wamid = `wamid.${randomUUID()}`) => ({
  contacts: [{ profile: { name: 'Carla' }, wa_id: from }],
  messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
});

/** A delivery status of an outbound message; `extra` adds fields such as `biz_opaque_callback_data`. */
export const statusUpdate = (
  wamid: string,
  status: string,
  timestamp = Math.floor(Date.now() / 1000),
  extra: { errors?: unknown[]; recipient_id?: string; biz_opaque_callback_data?: string } = {},
) => ({
  statuses: [{ id: wamid, status, timestamp: String(timestamp), recipient_id: '4915112345678', ...extra }],
});

/** POSTs a payload to the test runtime's webhook route, signed with the platform app's secret unless `signature` is given. */
export function postWhatsAppWebhook(payload: unknown, signature?: string): Promise<ApiResponse> {
  const raw = JSON.stringify(payload);
  return call('POST', '/channels/whatsapp/webhook', {
    rawBody: raw,
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature ?? signWhatsApp(raw) },
  });
}
