import { applyReceipt } from '../conversations/service';
import { findByProviderId, type MessageRef } from '../conversations/message-store';
import type { Message } from '../conversations/conversation';
import { heldReceipts, type HeldReceipt } from './store';

/**
 * WhatsApp statuses Meta sent before the send they are about was recorded (Meta does not order its
 * webhooks after its answers), applied once it is: by the status's own second look (whatsapp-inbound.ts),
 * by the sender after it records the send (send-worker.ts), or by the sweeper for a sender that died in
 * between on its last try (sweep.ts). A module of its own, so that the sweeper's bundle carries this and
 * not the inbound paths.
 */

/** A status applied to the message its provider id names (false: late or repeated). */
export const applyReceiptTo = (ref: MessageRef, r: HeldReceipt) => applyReceipt(ref, r.status, new Date(r.at), r.error);

/**
 * Statuses held for a wamid, applied once its send is recorded (found by its provider id). Nothing held:
 * one read.
 */
export async function applyHeldReceipts(tenantId: string, wamid: string, now: Date): Promise<number> {
  // delivered before read: a status only moves forward, so order matters for the events, not the outcome.
  const order = { failed: 0, delivered: 1, read: 2 } as const;
  const held = (await heldReceipts(tenantId, wamid, now)).sort((a, b) => order[a.status] - order[b.status]);
  const sent = held.length > 0 ? await findByProviderId(tenantId, 'whatsapp', wamid) : undefined;
  if (!sent) return 0;
  let applied = 0;
  for (const receipt of held) if (await applyReceiptTo(sent, receipt)) applied++;
  return applied;
}

/**
 * A message sent already, met again (by a repeated or retried sender, or as its dead letter): the statuses
 * held for it are applied. The sender that recorded the send applies them next, and may have died in
 * between (a timeout). Nothing held: one read.
 */
export async function applyHeldStatusesOf(message: Message | undefined, now: Date): Promise<void> {
  if (message?.channel === 'whatsapp' && message.provider_message_id)
    await applyHeldReceipts(message.tenant_id, message.provider_message_id, now);
}
