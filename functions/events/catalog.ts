// Public: the event types and envelopes every feature emits.
/** The public event catalog (every type an event or webhook can carry) and subscription patterns: pure, no AWS imports. */
export const EVENT_TYPES = [
  'conversation.created',
  'conversation.updated',
  'conversation.message.received',
  'conversation.message.sent',
  'conversation.message.delivered',
  'conversation.message.read',
  'conversation.message.failed',
  'conversation.handoff',
  'booking.created',
  'booking.confirmed',
  'booking.updated',
  'booking.rescheduled',
  'booking.cancelled',
  'booking.completed',
  'booking.reminder.sent',
  'booking.reminder.answered',
  'payment.created',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.canceled',
  'payment.refunded',
  'channel.reauthorization_required',
  'template.status_updated',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_PATTERNS = ['*', 'conversation.*', 'booking.*', 'payment.*'] as const;

/** What a subscription or a filter may name: a type or a pattern. */
export const EVENT_FILTERS: readonly string[] = [...EVENT_PATTERNS, ...EVENT_TYPES];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);
export const isEventFilter = (value: string): boolean =>
  isEventType(value) || (EVENT_PATTERNS as readonly string[]).includes(value);

/** `*` matches everything; `booking.*` matches every type that starts with `booking.`. */
export function matchesPattern(type: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return type === pattern;
}

export const eventCategory = (type: string): string => type.split('.')[0] ?? type;

export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: EventType;
  created_at: string;
  tenant_id: string;
  api_version: 'v1';
  data: T;
}
