import type { Sender } from '../auth/principal';
import { sendMessage } from '../conversations/service';
import { listConversations } from '../conversations/store';
import { DomainError } from '../platform/domain-error';
import type { Language } from '../platform/languages';
import { bookingMessage } from './notification-text';
import { getBooking } from './store';

/**
 * Tells a booking's customer where it stands, as an outbound message in the booking's conversation, or
 * else the customer's most recently active one (sent as any message is: queued, then sent, delivered and
 * read as receipts come).
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
  const text = bookingMessage(booking, language);
  if (text === null)
    throw DomainError.invalid('nothing_to_notify', `A ${booking.status} booking has nothing to tell the customer.`);
  // The customer's list is newest activity first, read in one Query.
  const conversationId =
    booking.conversation_id ??
    (await listConversations(tenantId, { customer_id: booking.customer.id }, { limit: 1 })).items[0]?.id;
  if (!conversationId)
    throw DomainError.invalid(
      'booking_without_conversation',
      'Neither the booking nor its customer has a conversation to write in: start one with the customer first.',
    );
  return sendMessage(tenantId, conversationId, text, sender, now);
}
