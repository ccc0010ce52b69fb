import { unauthorized, unprocessable } from '../platform/errors';
import { header } from '../http/request-state';
import { httpHandler } from '../http/handler';
import { normalisePhone } from '../customers/customer';
import { applyChannelStatus, receiveInbound } from '../conversations/service';
import { WebhookBody } from './schemas';
import { routeWhatsAppNumber } from './store';
import { inboundText, messageOfCallbackData, receiptTime, validSignature, webhookValues } from './whatsapp';

/** `sent` only settles a send whose outcome was not recorded (applyChannelStatus); the others are receipts. */
const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);
/** Meta batches per app; a bound keeps an unsigned request from costing many lookups. */
const MAX_NUMBERS = 10;

/**
 * Meta's webhook POST: messages and statuses, routed to tenants by phone_number_id and verified with
 * X-Hub-Signature-256 against that number's app secret (401 if it does not match). Numbers nobody
 * connected are ignored. Repeated deliveries (the same wamid) are ignored.
 */
export const handler = httpHandler('whatsapp-webhook', { body: WebhookBody }, async ({ body, state, event, now }) => {
  const values = webhookValues(body);
  if (new Set(values.map((v) => v.phoneNumberId)).size > MAX_NUMBERS) {
    throw unprocessable('too_many_numbers', `One webhook may carry at most ${MAX_NUMBERS} phone numbers.`);
  }
  const routes = new Map<string, Awaited<ReturnType<typeof routeWhatsAppNumber>>>();
  for (const { phoneNumberId } of values)
    if (!routes.has(phoneNumberId)) routes.set(phoneNumberId, await routeWhatsAppNumber(phoneNumberId));
  const signature = header(event, 'x-hub-signature-256');
  for (const route of routes.values()) {
    if (route && !validSignature(state.rawBody, signature, route.secrets.app_secret)) {
      throw unauthorized('invalid_signature', 'X-Hub-Signature-256 does not match the app secret of this number.');
    }
  }
  const counts = { received: 0, duplicates: 0, receipts: 0, ignored: 0 };
  for (const { phoneNumberId, value } of values) {
    const route = routes.get(phoneNumberId);
    if (!route) {
      counts.ignored += (value.messages?.length ?? 0) + (value.statuses?.length ?? 0);
      continue;
    }
    for (const m of value.messages ?? []) {
      const phone = normalisePhone(m.from ?? '');
      if (!phone || !m.id) {
        counts.ignored++;
        continue;
      }
      // A blank profile name is no name (WhatsApp may send "").
      const name = value.contacts?.find((c) => c.wa_id === m.from)?.profile?.name?.trim() || null;
      const result = await receiveInbound(
        route.tenantId,
        'whatsapp',
        phoneNumberId,
        { phone, name, text: inboundText(m), providerId: m.id },
        now,
      );
      if (result) counts.received++;
      else counts.duplicates++;
    }
    for (const s of value.statuses ?? []) {
      if (!s.id || !s.status || !STATUSES.has(s.status)) {
        counts.ignored++;
        continue;
      }
      const error = s.errors?.[0]
        ? {
            code: `whatsapp_${s.errors[0].code ?? 'error'}`,
            message: s.errors[0].message ?? s.errors[0].title ?? 'failed',
          }
        : null;
      const applied = await applyChannelStatus(
        route.tenantId,
        'whatsapp',
        s.id,
        s.status as 'sent' | 'delivered' | 'read' | 'failed',
        receiptTime(s.timestamp, now),
        error,
        messageOfCallbackData(s.biz_opaque_callback_data, route.tenantId),
      );
      if (applied) counts.receipts++;
      else counts.ignored++;
    }
  }
  return { status: 200, body: counts };
});
