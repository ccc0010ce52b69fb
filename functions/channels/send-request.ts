import * as z from 'zod/mini';
import type { Message } from '../conversations/conversation';
import type { MessageRef } from '../conversations/message-store';

/**
 * What the dispatcher hands the channel sender: the queued message's reference, and the message itself
 * as its stream record carries it, so the first attempt need not read it. Not when its text holds a
 * character SQS refuses (U+FFFE, U+FFFF): a failed attempt's destination record, which Lambda puts on the
 * ChannelOutbound queue, carries the payload.
 */
export type SendRequest = MessageRef & { message?: Message };

export const sendRequestOf = (message: Message): SendRequest => ({
  tenant_id: message.tenant_id,
  conversation_id: message.conversation_id,
  message_id: message.id,
  ...(/[\ufffe\uffff]/.test(message.text) ? {} : { message }),
});

const Ref = z.object({ tenant_id: z.string(), conversation_id: z.string(), message_id: z.string() });
/** All of the message (loose), checked for the fields that say which message it is and how to send it. */
const CarriedMessage = z.looseObject({
  id: z.string(),
  tenant_id: z.string(),
  conversation_id: z.string(),
  status: z.string(),
  channel: z.string(),
  text: z.string(),
});

/**
 * The first attempt's reference, and its carried message when it is all there and is the one referred to
 * (else the sender reads it). Throws on a payload without a reference.
 */
export function parseSendRequest(payload: unknown): { ref: MessageRef; message?: Message } {
  const { tenant_id, conversation_id, message_id } = Ref.parse(payload);
  const ref = { tenant_id, conversation_id, message_id };
  const { message } = payload as { message?: unknown };
  const carried = CarriedMessage.safeParse(message);
  const matches =
    carried.success &&
    carried.data.id === message_id &&
    carried.data.tenant_id === tenant_id &&
    carried.data.conversation_id === conversation_id;
  // The message as sent, not the check's output (which puts the fields it names first): events carry it.
  return matches ? { ref, message: message as Message } : { ref };
}

/** A retry on the queue: Lambda's destination record of a failed first attempt (or a bare reference). */
const QueuedSend = z.union([z.object({ requestPayload: Ref }), Ref]);

/** The message a queued retry is for: only its reference, since a retry reads the message again. */
export const refOfQueuedSend = (body: unknown): MessageRef => {
  const parsed = QueuedSend.parse(body);
  const { tenant_id, conversation_id, message_id } = 'requestPayload' in parsed ? parsed.requestPayload : parsed;
  return { tenant_id, conversation_id, message_id };
};
