// Public: sending due reminders, for the business scheduler.
import type { Sender } from '../auth/principal';
import { DomainError, isDomainError } from '../platform/domain-error';
import { logger } from '../platform/workers';
import { retryTransient } from '../platform/db';
import { eventPut, newEvent } from '../events/store';
import { getBooking } from '../bookings/store';
import { cancelBooking, updateBooking } from '../bookings/service';
import { conversationToWrite } from '../bookings/notification';
import { nearestSlots } from '../bookings/free-slots';
import type { Booking } from '../bookings/booking';
import { getConversation, listConversations } from '../conversations/store';
import { listMessages, messagePut } from '../conversations/message-store';
import {
  prepareTemplateMessage,
  recordOutboundActivity,
  sendPlatformMessage,
  sendText,
} from '../conversations/service';
import { findTemplate } from '../templates/store';
import { parameterCount } from '../templates/template';
import type { Conversation } from '../conversations/conversation';
import {
  REMINDER_ANSWERS,
  answerPayload,
  confirmReply,
  localStart,
  reminderParameters,
  reminderTemplate,
  slotPayload,
  wantedReminders,
  type ReminderAnswer,
  type ReminderPolicy,
  type Tap,
} from './reminder';
import {
  addReminder,
  dropPendingReminder,
  getPolicy,
  putPolicy,
  remindersOf,
  recordTapAnswer,
  settleReminder,
  tapAnswered,
  tapAnsweredPut,
  type Reminder,
} from './store';

/** Booking reminders: scheduled from each booking's state, sent once each, and the customer's taps. */

const SYSTEM: Sender = { type: 'system', id: 'reminders' };
/** How many free slots the reschedule list offers (WhatsApp lists take 10 rows). */
const SLOTS_OFFERED = 5;

export async function savePolicy(
  tenantId: string,
  patch: Partial<Pick<ReminderPolicy, 'enabled' | 'offsets_minutes' | 'templates' | 'default_language'>>,
  now: Date,
): Promise<ReminderPolicy> {
  const current = await getPolicy(tenantId);
  const next = { ...current, ...patch };
  if (next.enabled && next.templates.length === 0)
    throw DomainError.invalidField('invalid_reminder_policy', 'templates', 'name at least one template to remind with');
  const policy: ReminderPolicy = {
    ...next,
    tenant_id: tenantId,
    offsets_minutes: [...new Set(next.offsets_minutes)].sort((a, b) => b - a),
    updated_at: now.toISOString(),
  };
  await putPolicy(policy);
  return policy;
}

/**
 * Brings a booking's reminders in line with the booking as it is now (read again, so stream records that
 * arrive twice or out of order do no harm): one pending reminder per offset still ahead of its current
 * start while it is pending or confirmed; others that have not gone are dropped (a cancelled or
 * rescheduled booking's). A sent reminder is never sent again.
 */
export async function reconcileReminders(tenantId: string, bookingId: string, now: Date): Promise<void> {
  const [booking, policy, existing] = await Promise.all([
    getBooking(tenantId, bookingId),
    getPolicy(tenantId),
    remindersOf(tenantId, bookingId),
  ]);
  const wanted = booking ? wantedReminders(booking, policy, now) : [];
  const key = (r: { start_at: string; offset_minutes: number }) => `${r.start_at}#${r.offset_minutes}`;
  const wantedKeys = new Set(wanted.map((w) => key({ start_at: booking!.start_at, offset_minutes: w.offset_minutes })));
  const existingKeys = new Set(existing.map(key));
  for (const r of existing) if (r.status === 'pending' && !wantedKeys.has(key(r))) await dropPendingReminder(r);
  for (const w of wanted) {
    const reminder: Reminder = {
      tenant_id: tenantId,
      booking_id: bookingId,
      start_at: booking!.start_at,
      offset_minutes: w.offset_minutes,
      due_at: w.due_at,
      status: 'pending',
    };
    if (!existingKeys.has(key(reminder))) await addReminder(reminder);
  }
}

/** The conversation a booking's messages go to: its own, else the customer's (as booking notifications pick). */
async function bookingConversation(booking: Booking, now: Date): Promise<Conversation | undefined> {
  if (booking.conversation_id) return getConversation(booking.tenant_id, booking.conversation_id);
  const page = await listConversations(booking.tenant_id, { customer_id: booking.customer.id }, { limit: 20 });
  return conversationToWrite(page.items, now);
}

/** How many of a conversation's latest messages are read for the customer's language. */
const LANGUAGE_LOOKBACK = 20;

/**
 * The language the customer writes in: the one detected in their latest analysed message (the AI's
 * analysis stores it on each inbound message), or null when none of the latest messages has one.
 */
async function customerLanguage(conversation: Conversation): Promise<string | null> {
  const page = await listMessages(conversation.tenant_id, conversation.id, { limit: LANGUAGE_LOOKBACK });
  return page.items.find((m) => m.direction === 'inbound' && m.analysis)?.analysis?.language ?? null;
}

/**
 * A reminder whose time has come: its template message (in the customer's language when the policy has a
 * template in it) is queued and `booking.reminder.sent` emitted in one transaction with the reminder's move
 * from pending, so it goes exactly once however many runs see it. One that can no longer go (the booking
 * moved or ended, no conversation, no approved template) is skipped, with the reason logged.
 */
export async function sendReminder(r: Reminder, now: Date): Promise<'sent' | 'skipped' | 'gone'> {
  const booking = await getBooking(r.tenant_id, r.booking_id);
  const skip = async (reason: string) => {
    logger.info('reminder skipped', { tenant_id: r.tenant_id, booking_id: r.booking_id, reason });
    return (await settleReminder(r, 'skipped', [], now)) ? 'skipped' : 'gone';
  };
  if (!booking || booking.start_at !== r.start_at || !['pending', 'confirmed'].includes(booking.status))
    return skip('the booking moved or ended');
  const [policy, conversation] = await Promise.all([getPolicy(r.tenant_id), bookingConversation(booking, now)]);
  // The customer's language matters only when the policy has templates in more than one.
  const language = conversation && policy.templates.length > 1 ? await customerLanguage(conversation) : null;
  const chosen = reminderTemplate(policy, language);
  if (!conversation || !chosen) return skip(conversation ? 'no reminder template' : 'no conversation');
  const template = await findTemplate(
    r.tenant_id,
    conversation.channel === 'whatsapp' ? conversation.channel_account_id : null,
    chosen.name,
    chosen.language,
  );
  let message;
  try {
    message = await prepareTemplateMessage(
      conversation,
      {
        name: chosen.name,
        language: chosen.language,
        parameters: { body: reminderParameters(parameterCount(template?.body.text), booking, chosen.language) },
        quick_reply_payloads: REMINDER_ANSWERS.map((a) => answerPayload(booking.id, a)),
      },
      SYSTEM,
      now,
    );
  } catch (error) {
    if (isDomainError(error)) return skip(error.detail);
    throw error;
  }
  const event = newEvent(
    r.tenant_id,
    'booking.reminder.sent',
    { booking, message_id: message.id, conversation_id: conversation.id, offset_minutes: r.offset_minutes },
    now,
  );
  if (!(await settleReminder(r, 'sent', [messagePut(message), eventPut(event)], now))) return 'gone';
  await recordOutboundActivity(message, now);
  return 'sent';
}

/** Replies to the customer in the conversation they tapped in (inside the window: they just wrote). */
const reply = (tenantId: string, conversationId: string, text: string, now: Date) =>
  sendText(tenantId, conversationId, text, SYSTEM, now);

/**
 * A customer's tap on a reminder's button, or their pick from the reschedule list, already stored as a
 * message of the conversation: it acts on the booking (confirm, cancel within the tenant's rules, or offer
 * the nearest free slots; a pick moves the booking), answers the customer, and emits
 * `booking.reminder.answered`. The booking's change, that event and the tap's record commit in one
 * transaction (an answer that changes nothing commits the event and the record alone), so a tap delivered
 * again, even at the same moment, changes nothing twice and emits one event. A tap for another customer's
 * booking is ignored; a booking that cannot change so is answered with what stands.
 */
export async function answerTap(
  tenantId: string,
  conversationId: string,
  messageId: string,
  customerId: string,
  tap: Tap,
  now: Date,
): Promise<void> {
  if (await tapAnswered(tenantId, messageId)) return;
  const booking = await getBooking(tenantId, tap.bookingId);
  if (!booking || booking.customer.id !== customerId) return;
  const by: Sender = { type: 'customer', id: customerId };
  const answer: ReminderAnswer | 'reschedule_to' = tap.kind === 'slot' ? 'reschedule_to' : tap.answer;
  const answered = (b: Booking) => ({
    items: [tapAnsweredPut(tenantId, { message_id: messageId, booking_id: b.id, answer }, now)],
    events: [
      newEvent(
        tenantId,
        'booking.reminder.answered',
        { booking: b, answer, message_id: messageId, conversation_id: conversationId },
        now,
      ),
    ],
  });
  // The booking the answer was committed with, if a change was: the service returns that very object.
  let changed: Booking | undefined;
  const withChange = (after: Booking) => {
    changed = after;
    return answered(after);
  };
  let after = booking;
  let text: string;
  let offer: Parameters<typeof sendPlatformMessage>[2] | undefined;
  try {
    if (tap.kind === 'slot') {
      const length = Date.parse(booking.end_at) - Date.parse(booking.start_at);
      after = await updateBooking(
        tenantId,
        booking.id,
        { start_at: tap.startAt, end_at: new Date(Date.parse(tap.startAt) + length).toISOString() },
        by,
        undefined,
        now,
        undefined,
        withChange,
      );
      text = `Done: your booking is now on ${localStart(after.start_at, after.timezone, 'en')}.`;
    } else if (tap.answer === 'confirm') {
      if (booking.status === 'pending')
        after = await updateBooking(
          tenantId,
          booking.id,
          { status: 'confirmed' },
          by,
          undefined,
          now,
          booking,
          withChange,
        );
      text = confirmReply(after);
    } else if (tap.answer === 'cancel') {
      // The bookings service applies the tenant's rules (and, where a payment applies, its refund policy).
      after = await cancelBooking(
        tenantId,
        booking.id,
        'Cancelled by the customer from a reminder',
        by,
        undefined,
        now,
        withChange,
      );
      text = 'Your booking is cancelled.';
    } else {
      const slots = await nearestSlots(booking, new Date(now.getTime() + 3_600_000), SLOTS_OFFERED, now);
      text = slots.length === 0 ? 'There is no free time in the coming days; we will get back to you.' : '';
      if (slots.length > 0)
        offer = {
          type: 'interactive',
          interactive: {
            type: 'list',
            body: 'Pick a new time for your booking:',
            button: 'Free times',
            sections: [
              {
                title: 'Nearest free times',
                rows: slots.map((s) => ({
                  id: slotPayload(booking.id, s.start_at),
                  title: localStart(s.start_at, booking.timezone, 'en').slice(0, 24),
                })),
              },
            ],
          },
        };
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
    // Another delivery of this tap may have committed first (its record failed this one's transaction).
    if (await tapAnswered(tenantId, messageId)) return;
    text = `We could not change your booking: ${error.detail}`;
  }
  if (after !== changed) {
    const { items, events } = answered(after);
    if (!(await recordTapAnswer([...items, ...events.map(eventPut)]))) return;
  }
  // The replies go once the answer is recorded, so a redelivered tap never sends them twice; a throttled
  // write of one is tried again here, as a retry of the whole answer would find it recorded and send nothing.
  const [list, answerText] = [offer, text];
  if (list) await retryTransient(() => sendPlatformMessage(tenantId, conversationId, list, SYSTEM, now));
  if (answerText) await retryTransient(() => reply(tenantId, conversationId, answerText, now));
}
