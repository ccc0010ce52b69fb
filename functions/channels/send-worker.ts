import { clock } from '../platform/clock';
import { invokedOrQueuedWorker, logger, sqsWorker } from '../platform/workers';
import { QUEUES } from '../../catalog/resources';
import { markFailed, markSent, recordSandboxSend } from '../conversations/service';
import { claimForSending, markOutcomeUnknown, releaseSendClaim } from '../conversations/send-store';
import { getConversation } from '../conversations/store';
import { getMessage, type MessageRef } from '../conversations/message-store';
import { sandboxSend } from './sandbox';
import { parseSendRequest, refOfQueuedSend } from './send-request';
import { flagNeedsReauthorization, routeWhatsAppNumber } from './store';
import { sendReference } from './whatsapp-inbound';
import { applyHeldReceipts, applyHeldStatusesOf } from './held-statuses';
import { whatsAppPlatformApp } from '../platform/secrets';
import { eventPut, newEvent } from '../events/store';
import { OUTBOUND_TAKEOVER_MS, UNKNOWN_OUTCOME_WAIT_MS, type Message } from '../conversations/conversation';
import { whatsAppRecipient } from '../customers/customer';
import { GraphError, sendWhatsAppMessage, uploadWhatsAppMedia } from './whatsapp';
import { getMediaObject } from '../media/store';
import { graphMessageOf, kindOf } from '../conversations/message-kinds';
import { getTemplate } from '../templates/store';
import { metaTemplateMessage } from '../templates/meta-template';

/**
 * The Graph message of a queued message, by its kind; a template's is built from the template as it is
 * now (a template deleted since the message was accepted fails it, with a reason).
 */
async function graphMessageFor(
  message: Message,
  upload: (file: { bytes: Uint8Array; mimeType: string; filename: string }) => Promise<string>,
): Promise<{ body: Record<string, unknown> } | { code: string; message: string }> {
  const kind = kindOf(message);
  if (kind.type !== 'template' && kind.type !== 'text' && kind.type !== 'interactive' && kind.media.media_id) {
    // An uploaded file goes to WhatsApp first (POST /{phone_number_id}/media), then by the id it gets.
    const file = await getMediaObject(message.tenant_id, kind.media.media_id);
    if (!file)
      return { code: 'media_expired', message: 'The uploaded file is no longer kept (past the media retention).' };
    const filename = message.media?.filename ?? kind.media.filename ?? `${kind.type}-${kind.media.media_id}`;
    return { body: graphMessageOf(kind, undefined, await upload({ ...file, filename })) };
  }
  if (kind.type !== 'template') return { body: graphMessageOf(kind) };
  const template = kind.template.template_id
    ? await getTemplate(message.tenant_id, kind.template.template_id)
    : undefined;
  if (!template)
    return {
      code: 'template_not_found',
      message: `The template ${kind.template.name} (${kind.template.language}) was deleted before the message went.`,
    };
  return {
    body: graphMessageOf(
      kind,
      metaTemplateMessage(template, kind.template.parameters, kind.template.quick_reply_payloads),
    ),
  };
}

const IN_PROCESS_ATTEMPTS = 3;
/**
 * Timing, from inside out: 3 Graph calls of at most 5 s plus back-off (< 17 s) < this lease (20 s) <
 * the function timeout (25 s, WORKER_TIMEOUT_SECONDS) < the queue's visibility timeout (150 s, six times
 * that: catalog/resources.ts); and the lease < the queue's delivery delay (30 s), which a failed first
 * attempt waits out on the queue. So a retry never finds a live lease unless another worker is really
 * still sending the message.
 */
export const SEND_LEASE_MS = 20_000;
/**
 * A message handed back to the queue after the channel refused it comes back within the queue's delay
 * or visibility timeout; the sweeper takes it over only if that retry is lost.
 */
const RETRY_TAKEOVER_MS =
  (QUEUES.channelOutbound.visibilityTimeoutSeconds + QUEUES.channelOutbound.deliveryDelay.seconds) * 1000 +
  OUTBOUND_TAKEOVER_MS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Retries what Meta's error code calls transient a few times in process (waiting at least what Meta
 * documents, or Retry-After), then gives up to SQS. A wait longer than the lease allows goes to the queue.
 */
async function withGraphRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof GraphError) || !error.retryable || attempt >= IN_PROCESS_ATTEMPTS) throw error;
      const wait = Math.max(error.minWaitMs ?? 0, 200 * 2 ** attempt);
      if (wait > 6_000) throw error;
      await sleep(wait);
    }
  }
}

/** The provider has the message: record it, retrying the write alone (never the send). */
async function recordSent(ref: MessageRef, channel: 'sandbox' | 'whatsapp', providerId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await markSent(ref, channel, providerId, clock.now());
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      await sleep(100 * attempt);
    }
  }
}

/**
 * The first attempt: the dispatcher's payload. Its message is the one the stream record carries, as a
 * read would return it while the message is queued (nothing but the send lease changes a queued
 * message). A repeated payload (a stream record handled twice) may carry it queued when it no longer is:
 * the attempt's conditional writes then fail, and `send` reads it before calling that a conflict. A
 * message that is not all there, or not this one, is read instead (channels/send-request.ts).
 */
function firstAttempt(payload: unknown): Promise<void> {
  const { ref, message } = parseSendRequest(payload);
  return send(ref, false, message);
}

/**
 * Sends one queued outbound message through its channel. The message is claimed first (a lease), so a
 * repeated attempt never sends twice. Retryable failures throw (the first attempt's failure goes to the
 * queue, whose redeliveries retry it, then the DLQ); on the last attempt, and on permanent errors, the
 * message is marked failed. A lease is taken once only: one that ended without an outcome belonged to a
 * sender that died, perhaps after the channel accepted the message, so its outcome is unknown. Status
 * webhooks settle it (the send carries the message's reference), or the sweeper records it failed with
 * `outcome_unknown` for a person to decide (channels/sweep.ts); it is never sent again.
 */
async function send(ref: MessageRef, lastAttempt: boolean, written?: Message): Promise<void> {
  const message = written ?? (await getMessage(ref));
  const now = () => clock.now();
  if (!message || message.status !== 'queued') return applyHeldStatusesOf(message, now());

  // The sandbox "sends" in process, with no side effect: its one conditional write (from queued) is the
  // only guard it needs, so it takes no lease.
  if (message.channel === 'sandbox') {
    const result = sandboxSend(message.text);
    if (!result.ok) return markFailed(ref, { code: result.code, message: result.message }, now());
    await recordSandboxSend(message, result.providerId, result.receipts, now());
    return;
  }

  const claim = await claimForSending(
    ref,
    now(),
    SEND_LEASE_MS,
    new Date(now().getTime() + SEND_LEASE_MS + UNKNOWN_OUTCOME_WAIT_MS),
  );
  // A carried copy may be stale (a repeated payload): a message no longer queued has nothing left to send.
  if (claim === 'not_queued') return applyHeldStatusesOf(await getMessage(ref), now());
  if (claim === 'outcome_unknown') {
    logger.warn('send outcome unknown: not sent again', { message_id: ref.message_id });
    return;
  }
  // Another worker holds the lease: let the queue bring this back later rather than dropping it.
  if (claim === 'held') throw new Error('message is being sent by another worker');

  const retryAt = () => new Date(now().getTime() + RETRY_TAKEOVER_MS);
  let conversation: Awaited<ReturnType<typeof getConversation>>;
  let route: Awaited<ReturnType<typeof routeWhatsAppNumber>>;
  let app: Awaited<ReturnType<typeof whatsAppPlatformApp>>;
  let phoneNumberId: string | null | undefined;
  try {
    conversation = await getConversation(ref.tenant_id, ref.conversation_id);
    phoneNumberId = conversation?.channel_account_id;
    route = phoneNumberId ? await routeWhatsAppNumber(phoneNumberId) : undefined;
    app = await whatsAppPlatformApp();
  } catch (error) {
    // Nothing reached the channel yet: give the lease back, so the retry may send (an ended lease would
    // mean the outcome is unknown).
    await releaseSendClaim(ref, retryAt());
    throw error;
  }
  if (!conversation || !phoneNumberId || !route || route.tenantId !== ref.tenant_id) {
    return markFailed(
      ref,
      { code: 'channel_not_connected', message: 'No WhatsApp number is connected for this conversation.' },
      now(),
    );
  }
  if (route.needsReauthorization) return markFailed(ref, NEEDS_REAUTHORIZATION, now());
  // The phone number when known, else Meta's business-scoped user id (a username user's).
  const recipient = whatsAppRecipient(conversation.customer);
  if (!recipient.phone && !recipient.userId)
    return markFailed(
      ref,
      { code: 'customer_unreachable', message: 'The customer has neither a phone number nor a WhatsApp user id.' },
      now(),
    );
  const credentials = {
    accessToken: route.secrets.access_token,
    // appsecret_proof for the platform's app; a tenant's own app need not require it.
    appSecret: route.secrets.app_secret ? undefined : app?.secret,
  };
  // Until the message itself is posted nothing reached the customer: a failure gives the lease back.
  let posting = false;
  try {
    const graphMessage = await graphMessageFor(message, (file) =>
      withGraphRetries(() => uploadWhatsAppMedia(phoneNumberId, credentials, file)),
    );
    if ('code' in graphMessage) return markFailed(ref, graphMessage, now());
    posting = true;
    const wamid = await withGraphRetries(() =>
      sendWhatsAppMessage(phoneNumberId, credentials, recipient, graphMessage.body, sendReference(ref)),
    );
    await recordSent(ref, 'whatsapp', wamid);
    // Statuses Meta sent before this send was recorded were held for it.
    await applyHeldReceipts(ref.tenant_id, wamid, now());
  } catch (error) {
    if (!(error instanceof GraphError)) {
      if (!posting) await releaseSendClaim(ref, retryAt());
      throw error;
    }
    const { decision } = error;
    logger.warn('whatsapp send failed', {
      status: error.status,
      code: error.code,
      decision: decision.kind,
      message_id: ref.message_id,
    });
    if (decision.kind === 'unknown') {
      // Meta may have it: a resend could message the customer twice. Its statuses settle it (they carry
      // the message's reference); until then it stays queued under a long lease, and if none comes the
      // sweeper records it failed (outcome_unknown) for a person to resend.
      return markOutcomeUnknown(ref, error.message, now());
    }
    if (decision.kind === 'reauthorize') {
      await flagNeedsReauthorization(ref.tenant_id, phoneNumberId, (channel) =>
        eventPut(newEvent(ref.tenant_id, 'channel.reauthorization_required', { channel }, now())),
      );
      return markFailed(ref, NEEDS_REAUTHORIZATION, now());
    }
    if (decision.kind === 'retry' && !lastAttempt) {
      await releaseSendClaim(ref, retryAt());
      throw error;
    }
    await markFailed(ref, { code: error.code, message: error.message }, now());
  }
}

const NEEDS_REAUTHORIZATION = {
  code: 'channel_needs_reauthorization',
  message: 'Meta refused this WhatsApp number\u2019s access token (expired or revoked): an admin must reconnect it.',
};

/**
 * The dispatcher's asynchronous invocation makes the first attempt; the ChannelOutbound queue's
 * redeliveries make the others, the last at the queue's receive count limit.
 */
export const handler = invokedOrQueuedWorker(
  firstAttempt,
  sqsWorker(async (record) => {
    const lastAttempt =
      Number(record.attributes.ApproximateReceiveCount) >= QUEUES.channelOutbound.deadLetter.maxReceiveCount;
    await send(refOfQueuedSend(JSON.parse(record.body)), lastAttempt);
  }),
);
