// Public: a customer's tap on a reminder, for the channels' inbound paths.
import { logger } from '../platform/workers';
import { retryTransient } from '../platform/db';
import type { ChannelKind, Conversation, Message } from '../conversations/conversation';
import { findByProviderId, getMessage } from '../conversations/message-store';
import type { Tap } from './reminder';
import { answerTap } from './service';

/**
 * Acts on the tap a stored message carries. A transaction cancelled by throttling or a concurrent one
 * wrote nothing, so the answer is tried again at once (answering is idempotent per message): logged and
 * dropped, it would leave the booking unchanged while the request or queue message reported success.
 * Any other failure is logged for a person (the tap is in the conversation and the agent sees it) rather
 * than retried with the message.
 */
async function answerLogged(
  tenantId: string,
  conversationId: string,
  message: Pick<Message, 'id' | 'sender'>,
  tap: Tap,
  now: Date,
): Promise<void> {
  try {
    await retryTransient(() => answerTap(tenantId, conversationId, message.id, message.sender.id, tap, now));
  } catch (error) {
    logger.error('a reminder answer could not be acted on', {
      tenant_id: tenantId,
      booking_id: tap.bookingId,
      error: error as Error,
    });
  }
}

/** Acts on a customer's tap once its message is stored. */
export const answerTapSafely = (
  tenantId: string,
  received: { conversation: Conversation; message: Message },
  tap: Tap,
  now: Date,
): Promise<void> => answerLogged(tenantId, received.conversation.id, received.message, tap, now);

/**
 * A tap delivered again (its message was stored already, by provider id): the first delivery may have
 * stopped between storing it and acting on it, so it is acted on from the stored message. An answer is
 * recorded once per message (service.ts answerTap), so a tap that was answered changes nothing.
 */
export async function answerRedeliveredTap(
  tenantId: string,
  channel: ChannelKind,
  providerId: string,
  tap: Tap,
  now: Date,
): Promise<void> {
  const ref = await findByProviderId(tenantId, channel, providerId);
  const message = ref && (await getMessage(ref));
  if (message?.direction === 'inbound') await answerLogged(tenantId, message.conversation_id, message, tap, now);
}
