import { createHmac, timingSafeEqual } from 'node:crypto';

/** WhatsApp Cloud API: payload shapes, signature check and the Graph API client. No AWS imports. */

/** Meta's X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function validSignature(rawBody: string, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice(7), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface WebhookValue {
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: { wa_id?: string; profile?: { name?: string } }[];
  messages?: { id?: string; from?: string; timestamp?: string; type?: string; text?: { body?: string } }[];
  statuses?: {
    id?: string;
    status?: string;
    biz_opaque_callback_data?: string;
    timestamp?: string;
    recipient_id?: string;
    errors?: { code?: number; title?: string; message?: string }[];
  }[];
}

export interface WebhookPayload {
  object?: string;
  entry?: { id?: string; changes?: { field?: string; value?: WebhookValue }[] }[];
}

/** Every `value` of a webhook, with the number it is for. */
export function webhookValues(payload: WebhookPayload): { phoneNumberId: string; value: WebhookValue }[] {
  return (payload.entry ?? []).flatMap((entry) =>
    (entry.changes ?? []).flatMap((change) => {
      const phoneNumberId = change.value?.metadata?.phone_number_id;
      return change.value && phoneNumberId ? [{ phoneNumberId, value: change.value }] : [];
    }),
  );
}

/** Text of an inbound message; other kinds are kept as a readable placeholder. */
export const inboundText = (m: NonNullable<WebhookValue['messages']>[number]): string =>
  m.type === 'text' ? (m.text?.body ?? '') : `[${m.type ?? 'unknown'} message]`;

export const receiptTime = (timestamp: string | undefined, fallback: Date): Date =>
  timestamp && /^\d+$/.test(timestamp) ? new Date(Number(timestamp) * 1000) : fallback;

/**
 * The callback data sent with a message (`biz_opaque_callback_data`, which WhatsApp returns in that
 * message's status webhooks): the message's conversation and id, so a status for a send whose outcome
 * was never recorded can still find its message. The tenant comes from the number the status is for.
 */
export const callbackDataOf = (ref: { conversation_id: string; message_id: string }): string =>
  `${ref.conversation_id}/${ref.message_id}`;

const CALLBACK_DATA = /^(conv_[0-9A-HJKMNP-TV-Z]{26})\/(msg_[0-9A-HJKMNP-TV-Z]{26})$/;

/** The message a status's callback data names, if it is ours (callbackDataOf); undefined otherwise. */
export function messageOfCallbackData(
  data: string | undefined,
  tenantId: string,
): { tenant_id: string; conversation_id: string; message_id: string } | undefined {
  const match = data ? CALLBACK_DATA.exec(data) : null;
  return match ? { tenant_id: tenantId, conversation_id: match[1]!, message_id: match[2]! } : undefined;
}

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly retryable: boolean,
    readonly code: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

/** The Graph API base URL (configurable, so tests run against a local fake Graph server). */
export const graphBaseUrl = () =>
  (process.env.WHATSAPP_GRAPH_URL ?? 'https://graph.facebook.com/v21.0').replace(/\/$/, '');

const GRAPH_TIMEOUT_MS = 5_000;

/** POST /{phone_number_id}/messages. Returns the wamid; throws GraphError (retryable on 5xx and 429). */
export async function sendWhatsAppText(
  phoneNumberId: string,
  accessToken: string,
  to: string,
  body: string,
  callbackData?: string,
): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${graphBaseUrl()}/${encodeURIComponent(phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: to.replace(/^\+/, ''),
        type: 'text',
        text: { preview_url: false, body },
        ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}),
      }),
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new GraphError(0, true, 'network_error', (error as Error).message);
  }
  const json = (await res.json().catch(() => ({}))) as {
    messages?: { id?: string }[];
    error?: { code?: number; message?: string };
  };
  if (res.ok && json.messages?.[0]?.id) return json.messages[0].id;
  const retryable = res.status === 429 || res.status >= 500;
  const retryAfter = Number(res.headers.get('retry-after'));
  throw new GraphError(
    res.status,
    retryable,
    `graph_${json.error?.code ?? res.status}`,
    json.error?.message ?? `Graph API answered ${res.status}`,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
  );
}

/**
 * Proves the caller controls the number: Graph answers GET /{phone_number_id} only with a token of the
 * business that owns it. Stops one tenant from claiming another's number.
 */
export async function verifyPhoneNumberAccess(phoneNumberId: string, accessToken: string): Promise<boolean> {
  try {
    const res = await fetch(`${graphBaseUrl()}/${encodeURIComponent(phoneNumberId)}?fields=id,display_phone_number`, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
    const json = (await res.json().catch(() => ({}))) as { id?: string };
    return res.ok && json.id === phoneNumberId;
  } catch {
    return false;
  }
}
