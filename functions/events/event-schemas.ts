// Public: the events' payload schemas, which webhooks document.
import * as z from 'zod/mini';
import { named, resourceId, tenantId, timestamp } from '../platform/api-contract';
import { Booking } from '../bookings/contract';
import { Conversation, Message } from '../conversations/contract';
import { WhatsAppChannel } from '../channels/contract';
import { Payment, Refund } from '../payments/contract';
import { Template } from '../templates/contract';
import { EVENT_TYPES, type EventType } from './catalog';
import { TEMPLATE_STATUSES } from '../templates/template';

/**
 * The `data` of every event type in the catalog, as the code that emits it writes it (conversations/
 * service.ts, bookings/service.ts, webhooks/test-event.ts). Only the OpenAPI document and the tests use
 * these: they are the `webhooks` section and the items of GET /events, and the contract tests check
 * every event the end-to-end suite produces against them.
 */
const change = z.object({ from: z.unknown(), to: z.unknown() });
const changes = z
  .record(z.string(), change)
  .check(z.meta({ description: 'Each changed field, from its old value to its new one.' }));
const statusChange = z.object({ status: z.object({ from: z.string(), to: z.string() }) });

const conversationData = z.object({ conversation: Conversation });
const messageData = z.object({ message: Message, conversation_id: resourceId('conv') });
const bookingStatusData = z.object({ booking: Booking, changes: statusChange });
const paymentStatusData = z.object({
  payment: Payment,
  booking_id: z.nullable(resourceId('bkg')),
  changes: statusChange,
});

export const EVENT_DATA: Record<EventType, { description: string; data: z.ZodMiniType }> = {
  'conversation.created': {
    description: 'A conversation was opened (by the API or by a customer\u2019s first message).',
    data: conversationData,
  },
  'conversation.updated': {
    description:
      'Status, snooze, tags, assignee, priority or category changed; a customer message waking a snoozed conversation too.',
    data: z.object({ conversation: Conversation, changes }),
  },
  'conversation.message.received': { description: 'A customer message arrived.', data: messageData },
  'conversation.message.sent': { description: 'The channel accepted an outbound message.', data: messageData },
  'conversation.message.delivered': {
    description: 'An outbound message reached the customer\u2019s device.',
    data: messageData,
  },
  'conversation.message.read': { description: 'The customer read an outbound message.', data: messageData },
  'conversation.message.failed': {
    description: 'An outbound message could not be sent (`message.error` says why).',
    data: messageData,
  },
  'conversation.handoff': {
    description: 'The AI handed the conversation to a human (once per episode, until it is resolved).',
    data: z.object({
      conversation: Conversation,
      reason: z.enum(['request_human', 'complaint', 'negative_sentiment']),
      message_id: resourceId('msg'),
    }),
  },
  'channel.reauthorization_required': {
    description:
      'Meta refused a WhatsApp number\u2019s access token (expired or revoked): nothing is sent through it until an admin reconnects it.',
    data: z.object({ channel: WhatsAppChannel }),
  },
  'template.status_updated': {
    description:
      'A message template’s review status changed (Meta’s review, its status webhook or a sync; the sandbox’s review): `template.rejection_reason` says why when rejected, paused or disabled.',
    data: z.object({ template: Template, previous_status: z.enum(TEMPLATE_STATUSES) }),
  },
  'booking.created': { description: 'A booking was made.', data: z.object({ booking: Booking }) },
  'booking.confirmed': { description: 'A pending booking was confirmed.', data: bookingStatusData },
  'booking.updated': {
    description: 'Details changed, or the booking was marked no-show.',
    data: z.object({ booking: Booking, changes }),
  },
  'booking.rescheduled': {
    description: 'The booking\u2019s time changed.',
    data: z.object({
      booking: Booking,
      changes,
      rescheduled_from: z.object({ start_at: timestamp, end_at: timestamp }),
    }),
  },
  'booking.cancelled': { description: 'The booking was cancelled.', data: bookingStatusData },
  'booking.completed': { description: 'The booking took place.', data: bookingStatusData },
  'booking.reminder.sent': {
    description:
      'A booking reminder went to the customer (once per booking, start time and offset of the tenant\u2019s reminder policy): a template message with Confirm, Cancel and Reschedule quick replies.',
    data: z.object({
      booking: Booking,
      message_id: resourceId('msg'),
      conversation_id: resourceId('conv'),
      offset_minutes: z.int(),
    }),
  },
  'booking.reminder.answered': {
    description:
      'The customer tapped a reminder\u2019s button (`confirm`, `cancel`, `reschedule`) or picked a new time from the list offered (`reschedule_to`); `booking` is as it stands after the answer (the booking\u2019s own events say what changed). Committed with the booking\u2019s change, once per tap however often it is delivered.',
    data: z.object({
      booking: Booking,
      answer: z.enum(['confirm', 'cancel', 'reschedule', 'reschedule_to']),
      message_id: resourceId('msg'),
      conversation_id: resourceId('conv'),
    }),
  },
  'payment.created': {
    description: 'A payment link was made (for a booking that waits for it, or by `POST /payments`).',
    data: z.object({ payment: Payment, booking_id: z.nullable(resourceId('bkg')) }),
  },
  'payment.succeeded': {
    description:
      'The customer paid. With `late_payment: true` the link had already expired or been withdrawn: the money is refunded in full at once (a `payment.refunded` follows).',
    data: z.object({
      payment: Payment,
      booking_id: z.nullable(resourceId('bkg')),
      changes: statusChange,
      late_payment: z.optional(z.literal(true)),
    }),
  },
  'payment.failed': {
    description: 'The payment was declined; a booking waiting for it is cancelled (`payment_failed`).',
    data: paymentStatusData,
  },
  'payment.expired': {
    description:
      'The link expired unpaid; a booking waiting for it is cancelled (`payment_expired`) and its slot is free.',
    data: paymentStatusData,
  },
  'payment.canceled': {
    description:
      'The unpaid link was withdrawn, by `POST /payments/{id}/cancel` or with its booking\u2019s cancellation.',
    data: paymentStatusData,
  },
  'payment.refunded': {
    description:
      'A refund went through (in part or in full): `refund` is the one, `changes.amount_refunded` the total.',
    data: z.object({
      payment: Payment,
      booking_id: z.nullable(resourceId('bkg')),
      refund: Refund,
      changes,
    }),
  },
  'webhook.test': {
    description: 'Sent to one endpoint by POST /webhooks/{id}/test.',
    data: z.object({ webhook_id: resourceId('whk'), message: z.string() }),
  },
};

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The envelope of each type, named like `BookingCreatedEvent`. */
export const EVENT_ENVELOPES = Object.fromEntries(
  EVENT_TYPES.map((type) => [
    type,
    named(
      `${pascal(type)}Event`,
      z
        .object({
          id: resourceId('evt'),
          type: z.literal(type),
          created_at: timestamp,
          tenant_id: tenantId,
          api_version: z.literal('v1'),
          data: EVENT_DATA[type].data,
        })
        .check(z.meta({ description: EVENT_DATA[type].description })),
    ),
  ]),
) as unknown as Record<EventType, z.ZodMiniObject>;

/** Any event: what GET /events lists and a delivery carries. */
export const Event = named(
  'Event',
  z.discriminatedUnion(
    'type',
    EVENT_TYPES.map((type) => EVENT_ENVELOPES[type]) as [z.ZodMiniObject, ...z.ZodMiniObject[]],
  ),
);
