import type { CreateWebhookParams, ListDeliveriesParams } from '@messaging-platform/sdk';

export type EventFilter = CreateWebhookParams['events'][number];
export type EventType = NonNullable<ListDeliveriesParams['event_type']>;

/** The event catalog (docs/events.md) as the webhook event picker offers it. */
export const EVENT_GROUPS: { label: string; options: { value: EventFilter; label: string; description?: string }[] }[] =
  [
    {
      label: 'Wildcards',
      options: [
        { value: '*', label: '*', description: 'Every event' },
        { value: 'conversation.*', label: 'conversation.*', description: 'Every conversation and message event' },
        { value: 'booking.*', label: 'booking.*', description: 'Every booking event' },
        { value: 'payment.*', label: 'payment.*', description: 'Payment events (reserved)' },
      ],
    },
    {
      label: 'Conversations',
      options: [
        { value: 'conversation.created', label: 'conversation.created' },
        { value: 'conversation.updated', label: 'conversation.updated' },
        { value: 'conversation.handoff', label: 'conversation.handoff' },
        { value: 'conversation.message.received', label: 'conversation.message.received' },
        { value: 'conversation.message.sent', label: 'conversation.message.sent' },
        { value: 'conversation.message.delivered', label: 'conversation.message.delivered' },
        { value: 'conversation.message.read', label: 'conversation.message.read' },
        { value: 'conversation.message.failed', label: 'conversation.message.failed' },
      ],
    },
    {
      label: 'Bookings',
      options: [
        { value: 'booking.created', label: 'booking.created' },
        { value: 'booking.confirmed', label: 'booking.confirmed' },
        { value: 'booking.updated', label: 'booking.updated' },
        { value: 'booking.rescheduled', label: 'booking.rescheduled' },
        { value: 'booking.cancelled', label: 'booking.cancelled' },
        { value: 'booking.completed', label: 'booking.completed' },
      ],
    },
    { label: 'Webhooks', options: [{ value: 'webhook.test', label: 'webhook.test' }] },
  ];

const isEventType = (filter: EventFilter): filter is EventType => !filter.endsWith('*');

/** Every exact event type (no wildcards). */
export const EVENT_TYPES: EventType[] = EVENT_GROUPS.flatMap((g) => g.options.map((o) => o.value)).filter(isEventType);
