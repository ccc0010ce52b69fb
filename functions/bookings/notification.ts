// Public: a booking's message to its customer, for the reminders.
import type { Sender } from '../auth/principal';
import { sendText } from '../conversations/service';
import { insideServiceWindow, type Conversation } from '../conversations/conversation';
import { listConversations } from '../conversations/store';
import { DomainError } from '../platform/domain-error';
import type { Language } from '../platform/languages';
import { bookingMessage } from './notification-text';
import { getBooking } from './store';

/** How many of the customer's conversations are looked at for one to write in. */
const CANDIDATES = 20;

/**
 * The customer's conversation to write in when the booking names none: of their latest, the one they last
 * wrote in that is open (not resolved) and can take a message now (within 24 hours of the customer's last
 * message, on WhatsApp and on the sandbox, which plays its window); else the latest open one; else their latest.
 */
export function conversationToWrite(conversations: readonly Conversation[], now: Date): Conversation | undefined {
  const byInbound = [...conversations].sort((a, b) => (b.last_inbound_at ?? '').localeCompare(a.last_inbound_at ?? ''));
  const open = byInbound.filter((c) => c.status !== 'resolved');
  return open.find((c) => insideServiceWindow(c, now)) ?? open[0] ?? conversations[0];
}

/**
 * Tells a booking's customer where it stands, as an outbound message in the booking's conversation, or
 * else one of the customer's (conversationToWrite); sent as any message is: queued, then sent, delivered
 * and read as receipts come. A booking that has ended has nothing to tell, unless it was cancelled.
 */
export async function notifyCustomer(
  tenantId: string,
  bookingId: string,
  language: Language,
  sender: Sender,
  now: Date,
) {
  const booking = await getBooking(tenantId, bookingId);
  if (!booking) throw DomainError.notFound('The booking');
  const over = booking.status !== 'cancelled' && Date.parse(booking.end_at) <= now.getTime();
  const text = over ? null : bookingMessage(booking, language);
  if (text === null)
    throw DomainError.invalid(
      'nothing_to_notify',
      over
        ? 'The booking has ended: there is nothing to tell the customer about it.'
        : `A ${booking.status} booking has nothing to tell the customer.`,
    );
  // The customer's conversations are one Query (their whole partition of the customer index).
  const conversationId =
    booking.conversation_id ??
    conversationToWrite(
      (await listConversations(tenantId, { customer_id: booking.customer.id }, { limit: CANDIDATES })).items,
      now,
    )?.id;
  if (!conversationId)
    throw DomainError.invalid(
      'booking_without_conversation',
      'Neither the booking nor its customer has a conversation to write in: start one with the customer first.',
    );
  return sendText(tenantId, conversationId, text, sender, now);
}
