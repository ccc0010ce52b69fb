import { normalisePhone, normaliseWhatsAppUserId } from '../customers/customer';
import { markSentIfQueued, receiveInbound } from '../conversations/service';
import { findByProviderId, setReaction, type MessageRef } from '../conversations/message-store';
import { holdReceipt, routeWhatsAppNumber, type HeldReceipt } from './store';
import { applyHeldReceipts, applyReceiptTo } from './held-statuses';
import { applyMetaTemplateStatus } from '../templates/service';
import { tapPayloadOf } from '../reminders/reminder';
import { graphErrorReason } from './graph-errors';
import { newId } from '../platform/ids';
import { retryTransient } from '../platform/db';
import { newMedia, type MessageMedia } from '../media/media';
import {
  INBOUND_MEDIA_TYPES,
  TEMPLATE_STATUS_FIELD,
  NOT_CUSTOMER_MESSAGES,
  inboundText,
  receiptTime,
  type InboundChunk,
  type WebhookMessage,
  type WebhookStatus,
} from './whatsapp';

const RECEIPTS = new Set(['delivered', 'read', 'failed']);
/** Our longest message text; Meta's text messages are at most 4,096 characters too, but captions and lists add up. */
const MAX_TEXT = 4096;
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

export interface InboundCounts {
  received: number;
  duplicates: number;
  receipts: number;
  held: number;
  reactions: number;
  /** Items we cannot use (no id, no sender, a kind that is not a customer writing, an unknown number). */
  skipped: number;
}

/**
 * What a send carries to Meta as biz_opaque_callback_data, which Meta returns on every status webhook
 * of that message: its reference, so a status can find a message whose send was never recorded.
 */
export const sendReference = (ref: MessageRef) => `${ref.tenant_id}/${ref.conversation_id}/${ref.message_id}`;
function refOfReference(reference: unknown): MessageRef | undefined {
  if (typeof reference !== 'string') return undefined;
  const [tenant_id, conversation_id, message_id, ...rest] = reference.split('/');
  if (rest.length || !tenant_id || !conversation_id?.startsWith('conv_') || !message_id?.startsWith('msg_'))
    return undefined;
  return { tenant_id, conversation_id, message_id };
}

/** A customer message: stored (opening or joining a conversation), or, for a reaction, attached to its message. */
async function receiveMessage(
  tenantId: string,
  phoneNumberId: string,
  m: WebhookMessage,
  contacts: InboundChunk['value']['contacts'],
  now: Date,
  counts: InboundCounts,
) {
  if (!isText(m.id, 256) || !isText(m.type, 32)) return void counts.skipped++;
  const sentAt = receiptTime(m.timestamp, now);
  if (m.type === 'reaction') {
    const target = isText(m.reaction?.message_id, 256)
      ? await findByProviderId(tenantId, 'whatsapp', m.reaction.message_id)
      : undefined;
    if (!target) return void counts.skipped++;
    const emoji = m.reaction?.emoji;
    await setReaction(
      target,
      isText(emoji, 32) ? { emoji, reacted_at: sentAt.toISOString() } : null,
      sentAt.toISOString(),
    );
    return void counts.reactions++;
  }
  // Reactions, system notices and unsupported kinds neither open a conversation nor move the window.
  if (NOT_CUSTOMER_MESSAGES.has(m.type)) return void counts.skipped++;
  // A user who adopted a username may withhold the phone number: then their BSUID names them.
  const phone = typeof m.from === 'string' ? normalisePhone(m.from) : null;
  const userId = normaliseWhatsAppUserId(m.from_user_id);
  if (!phone && !userId) return void counts.skipped++;
  const contact = contacts?.find(
    (c) => (m.from !== undefined && c?.wa_id === m.from) || (userId !== null && c?.user_id === userId),
  );
  // A blank profile name is no name (WhatsApp may send "").
  const name = typeof contact?.profile?.name === 'string' ? contact.profile.name.trim().slice(0, 200) || null : null;
  const username =
    typeof contact?.profile?.username === 'string' ? contact.profile.username.trim().slice(0, 100) || null : null;
  let text = inboundText(m).trim();
  if (!text) return void counts.skipped++;
  if (text.length > MAX_TEXT) text = `${text.slice(0, MAX_TEXT - 1)}\u2026`;
  const file = inboundMediaOf(m);
  const result = await receiveInbound(
    tenantId,
    'whatsapp',
    phoneNumberId,
    {
      phone,
      whatsAppUserId: userId,
      whatsAppUsername: userId ? username : null,
      name,
      text,
      providerId: m.id,
      sentAt,
      ...(file ? { media: file.media, mediaSourceId: file.sourceId } : {}),
      // A tap on a reminder's quick reply (button.payload) or a pick from a list we sent (list_reply.id),
      // acted on by the stream reaction once the message is stored (functions/reminders/taps.ts).
      replyPayload: tapPayloadOf(m.button?.payload ?? m.interactive?.list_reply?.id ?? m.interactive?.button_reply?.id),
    },
    now,
  );
  if (result) counts.received++;
  else counts.duplicates++;
}

/**
 * A customer's file, as metadata: `pending` until the media fetcher copies it from the Graph API (off
 * the webhook's path: Meta wants its 200 at once). Undefined for a message without one.
 */
function inboundMediaOf(m: WebhookMessage): { media: MessageMedia; sourceId: string } | undefined {
  const type = INBOUND_MEDIA_TYPES.find((t) => t === m.type);
  const part = type ? m[type] : undefined;
  if (!type || !part || !isText(part.id, 256)) return undefined;
  const filename = type === 'document' ? m.document?.filename : undefined;
  return {
    sourceId: part.id,
    media: newMedia({
      id: newId('med'),
      type,
      mime_type: isText(part.mime_type, 255) ? part.mime_type : 'application/octet-stream',
      status: 'pending',
      filename: isText(filename, 240) ? filename : null,
      caption: isText(part.caption, 1024) ? part.caption : null,
    }),
  };
}

async function applyStatus(tenantId: string, s: WebhookStatus, now: Date, counts: InboundCounts) {
  if (!isText(s.id, 256) || !isText(s.status, 32)) return void counts.skipped++;
  // `sent` needs no receipt: the sender records it from Meta's answer (or below, from a later status).
  if (s.status === 'sent' || !RECEIPTS.has(s.status)) {
    if (s.status === 'sent') await settleFromReference(tenantId, s, now);
    return void counts.skipped++;
  }
  const first = s.errors?.[0];
  const receipt: HeldReceipt = {
    status: s.status as HeldReceipt['status'],
    at: receiptTime(s.timestamp, now).toISOString(),
    error: first
      ? {
          code: `whatsapp_${typeof first.code === 'number' ? first.code : 'error'}`,
          // A reason a person can act on for the codes agents meet most (re-engagement, templates, media).
          message: graphErrorReason(
            typeof first.code === 'number' ? first.code : undefined,
            String(first.message ?? first.title ?? 'failed'),
          ).slice(0, 1024),
        }
      : null,
  };
  // One look decides. A send recorded after this look leaves the message no longer queued: the status is
  // then held below, and the hold's second look applies it.
  const sent = await findByProviderId(tenantId, 'whatsapp', s.id);
  // Not applied to a message already past it: a late or repeated status.
  if (sent) return void ((await applyReceiptTo(sent, receipt)) ? counts.receipts++ : counts.skipped++);
  // The send is not recorded yet: settle it from the reference Meta returns, else hold the status.
  const settled = await settleFromReference(tenantId, s, now);
  if (settled) return void ((await applyReceiptTo(settled, receipt)) ? counts.receipts++ : counts.skipped++);
  await holdReceipt(tenantId, s.id, receipt, now);
  counts.held++;
  // The send may have been recorded meanwhile, after its own look for held statuses: look again.
  await applyHeldReceipts(tenantId, s.id, now);
}

/**
 * A status whose message is still queued (its send's answer was lost, or is not recorded yet) names the
 * message in its biz_opaque_callback_data: Meta has it, so it is sent, with this wamid. Never resent.
 * The message, once so recorded; undefined when it was not (no longer queued, or no reference).
 */
async function settleFromReference(tenantId: string, s: WebhookStatus, now: Date): Promise<MessageRef | undefined> {
  const ref = refOfReference(s.biz_opaque_callback_data);
  if (!ref || ref.tenant_id !== tenantId || !s.id) return undefined;
  return (await markSentIfQueued(ref, 'whatsapp', s.id, now)) ? ref : undefined;
}

/** One business number's part of a webhook payload, as the webhook route queued it. */
export async function processInboundChunk(chunk: InboundChunk, now: Date): Promise<InboundCounts> {
  const counts: InboundCounts = { received: 0, duplicates: 0, receipts: 0, held: 0, reactions: 0, skipped: 0 };
  const messages = Array.isArray(chunk.value?.messages) ? chunk.value.messages : [];
  const statuses = Array.isArray(chunk.value?.statuses) ? chunk.value.statuses : [];
  if (chunk.field === TEMPLATE_STATUS_FIELD) {
    const v = chunk.value;
    const id =
      typeof v?.message_template_id === 'number' || typeof v?.message_template_id === 'string'
        ? String(v.message_template_id)
        : '';
    // A template not recorded yet (its creation's answer still on the way) has the review held for it.
    const outcome = /^\d{1,32}$/.test(id) ? await applyMetaTemplateStatus(id, v.event, v.reason, now) : 'unknown';
    if (outcome === 'applied') counts.receipts++;
    else if (outcome === 'held') counts.held++;
    else counts.skipped++;
    return counts;
  }
  const route = await routeWhatsAppNumber(chunk.phone_number_id);
  if (!route || chunk.field !== 'messages') {
    counts.skipped += messages.length + statuses.length;
    return counts;
  }
  // A transaction cancelled by throttling or a concurrent one (a burst of one customer's messages) wrote
  // nothing: the item is tried again at once, rather than the whole part after the queue's visibility
  // timeout. Each item is idempotent (a message by its wamid, a status by its order).
  for (const m of messages)
    await retryTransient(() =>
      receiveMessage(route.tenantId, chunk.phone_number_id, m, chunk.value.contacts, now, counts),
    );
  for (const s of statuses) await retryTransient(() => applyStatus(route.tenantId, s, now, counts));
  return counts;
}
