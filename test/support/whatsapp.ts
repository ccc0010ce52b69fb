import { createHmac, randomUUID } from 'node:crypto';
import { call, eventually, scheduledRunLateMs, WHATSAPP_APP_SECRET, type ApiResponse } from './api';
import { OUTBOUND_TAKEOVER_MS, UNKNOWN_OUTCOME_WAIT_MS } from '../../functions/conversations/conversation';
import { SEND_LEASE_MS } from '../../functions/channels/send-worker';
import { QUEUES } from '../../catalog/resources';
import { testRuntime } from './runtime';

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

/**
 * How long an outbound message may take to reach its final state (docs/architecture.md): a send whose
 * hand-off was lost is taken over by the outbound sweeper OUTBOUND_TAKEOVER_MS after it was queued; one
 * whose sender died mid-send is settled by its status webhook or, after its lease and
 * UNKNOWN_OUTCOME_WAIT_MS, recorded unknown; one handed back to the queue for a retry comes back after the
 * queue's delay, or its visibility timeout if that retry fails too, and is taken over after both. Under the
 * chaos mode each of those happens; the margin covers the sweeper's interval, and a timed-out sweep's lease
 * (scheduledRunLateMs).
 */
const outbound = QUEUES.channelOutbound;
export const SEND_SETTLES_MS =
  Math.max(
    SEND_LEASE_MS + UNKNOWN_OUTCOME_WAIT_MS,
    (outbound.visibilityTimeoutSeconds + (outbound.deliveryDelay?.seconds ?? 0)) * 1000 + OUTBOUND_TAKEOVER_MS,
  ) +
  15_000 +
  scheduledRunLateMs();
/**
 * How long a queued webhook payload may take to be stored: moments, but a part of it whose processing
 * failed (a burst's conflicts outlasting its retries, a throttled read) comes back after the queue's
 * visibility timeout, as in AWS; the margin covers its second processing.
 */
export const PAYLOAD_SETTLES_MS = QUEUES.whatsappInbound.visibilityTimeoutSeconds * 1000 + 60_000;

/** Every request the shared runtime's fake Graph server received, in order. */
export const graphRequests = async (): Promise<any[]> =>
  (await (await fetch(`${testRuntime().graphUrl}/__requests`)).json()) as any[];

/** The fake Graph server's requests for one message (its reference ends with the message's id). */
export const graphRequestsFor = async (messageId: string): Promise<any[]> =>
  (await graphRequests()).filter((r) => r.body?.biz_opaque_callback_data?.endsWith(messageId));

/**
 * Whether a message reached no customer because its sender died (the chaos mode's timeouts) before Graph
 * accepted it: its outcome is unknown (`outcome_unknown`) and Graph holds no request for it (`requests`,
 * the fake's record of those naming it), or, once the sweeper's verdict is in, accepted none. A person
 * then sees that the customer got nothing and sends it again, as the error advises. An unknown outcome of
 * a send Graph accepted is settled by its status webhooks instead.
 */
export const nothingReachedGraph = (message: any, requests: { accepted?: boolean }[]): boolean =>
  message?.error?.code === 'outcome_unknown' &&
  (requests.length === 0 || (message.status === 'failed' && requests.every((r) => !r.accepted)));

/** Whether a message has its outcome: neither waiting to be sent nor on its way. */
const settledMessage = (m: any): boolean => m !== undefined && !['queued', 'scheduled'].includes(m?.status);

/**
 * Sends a WhatsApp message with `post` (made anew for each try), expecting 202, and waits up to
 * SEND_SETTLES_MS until `read` shows it `done` (by default: settled). Should nothing have reached Graph
 * (nothingReachedGraph, over `requestsFor` the message's id), it is sent again, once, as a person would.
 * Returns the last try's response and message, once Graph accepted it at most once (no duplicate send).
 */
export async function settledWhatsAppSend(
  post: () => Promise<ApiResponse>,
  read: (id: string) => Promise<any>,
  requestsFor: (id: string) => Promise<{ accepted?: boolean }[]>,
  done: (message: any) => boolean = settledMessage,
): Promise<{ sent: ApiResponse; message: any }> {
  for (let tries = 1; ; tries++) {
    const sent = await post();
    // The whole response: a refusal shows its problem and request_id.
    expect(sent).toMatchObject({ status: 202 });
    const { message, resend } = await eventually(
      async () => {
        const message = await read(sent.body.id);
        return { message, resend: nothingReachedGraph(message, await requestsFor(sent.body.id)) };
      },
      (r) => r.resend || done(r.message),
      SEND_SETTLES_MS,
    );
    if (resend && tries < 2) continue;
    expect((await requestsFor(sent.body.id)).filter((r) => r.accepted).length).toBeLessThanOrEqual(1);
    return { sent, message };
  }
}
