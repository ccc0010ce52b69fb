// Public: the stream reaction that acts on a customer's tap on a reminder.
import { logger } from '../platform/workers';
import { clock } from '../platform/clock';
import { retryTransient } from '../platform/db';
import { isDomainError } from '../platform/domain-error';
import type { Message } from '../conversations/conversation';
import { replyPayloadOf } from '../conversations/message-store';
import { tapOf, type Tap } from './reminder';
import { answerTap } from './service';

/**
 * Acts on a tap its stored message carries. A transaction cancelled by throttling or a concurrent one
 * wrote nothing, so the answer is tried again at once (answering is idempotent per message). A refusal
 * of the booking's rules (a booking no longer open to the answer) is logged for a person: the tap is in
 * the conversation and the agent sees it. Anything else fails the stream record, which comes again
 * (its retries, then `StreamFailures`), so an outage does not lose the answer.
 */
export async function answerTapLogged(
  tenantId: string,
  message: Pick<Message, 'id' | 'conversation_id' | 'sender'>,
  tap: Tap,
  now: Date,
): Promise<void> {
  try {
    await retryTransient(() => answerTap(tenantId, message.conversation_id, message.id, message.sender.id, tap, now));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    logger.error('a reminder answer could not be acted on', {
      tenant_id: tenantId,
      booking_id: tap.bookingId,
      error,
    });
  }
}

/**
 * The stream reaction to an inbound message: one stored with a tap of ours (an inbound path keeps what the
 * tap carried on the item, in the same transaction as the message) is acted on. The stream brings every
 * stored message at least once, so a tap whose inbound delivery stopped right after storing it is not
 * lost, and an answer is recorded once per message (service.ts answerTap), so a record that comes again
 * changes nothing.
 */
export async function answerStoredTap(item: Record<string, unknown>): Promise<void> {
  const tap = tapOf(replyPayloadOf(item));
  if (!tap) return;
  await answerTapLogged(String(item.tenant_id), item as unknown as Message, tap, clock.now());
}
