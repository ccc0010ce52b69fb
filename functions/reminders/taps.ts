// Public: a customer's tap on a reminder, for the channels' inbound paths.
import { logger } from '../platform/workers';
import type { Conversation, Message } from '../conversations/conversation';
import type { Tap } from './reminder';
import { answerTap } from './service';

/**
 * Acts on a customer's tap once its message is stored. The message is stored once (a repeated delivery
 * is recognised by its provider id), so the tap is acted on once; a failure is logged for a person (the
 * tap is in the conversation and the agent sees it) rather than retried with the message.
 */
export async function answerTapSafely(
  tenantId: string,
  received: { conversation: Conversation; message: Message },
  tap: Tap,
  now: Date,
): Promise<void> {
  try {
    await answerTap(tenantId, received.conversation.id, received.message.id, received.message.sender.id, tap, now);
  } catch (error) {
    logger.error('a reminder answer could not be acted on', {
      tenant_id: tenantId,
      booking_id: tap.bookingId,
      error: error as Error,
    });
  }
}
