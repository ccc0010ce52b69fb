/** Bookings: lifecycle and time rules, pure. */
import type { Customer } from '../customers/customer';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Only these hold their time slot. */
export const isActive = (status: BookingStatus) => status === 'pending' || status === 'confirmed';

export const TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['completed', 'cancelled', 'no_show'],
  cancelled: [],
  completed: [],
  no_show: [],
};

export function transitionProblem(from: BookingStatus, to: BookingStatus): string | null {
  if (from === to || TRANSITIONS[from].includes(to)) return null;
  const allowed = TRANSITIONS[from];
  return allowed.length ? `A ${from} booking can move to ${allowed.join(', ')}, not ${to}.` : `A ${from} booking cannot change status.`;
}

export const MAX_DURATION_MS = 24 * 3600 * 1000;

/**
 * Resource schedules forget slots that ended a day ago, so an active booking of a resource must end
 * after that horizon (older ones are history: record them without a resource, or as completed).
 */
export const SCHEDULE_HORIZON_MS = 24 * 3600 * 1000;
export const beforeScheduleHorizon = (endAt: string, now: Date) => Date.parse(endAt) <= now.getTime() - SCHEDULE_HORIZON_MS;

export interface Booking {
  id: string;
  tenant_id: string;
  customer: Pick<Customer, 'id' | 'name' | 'phone'>;
  conversation_id: string | null;
  service: string;
  resource_id: string | null;
  start_at: string;
  end_at: string;
  timezone: string;
  notes: string | null;
  metadata: Record<string, string | number | boolean | null>;
  status: BookingStatus;
  cancellation: { reason: string | null; at: string; by: { type: string; id: string } } | null;
  rescheduled_from: { start_at: string; end_at: string } | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export function timeProblem(startAt: string, endAt: string): string | null {
  const start = Date.parse(startAt);
  const end = Date.parse(endAt);
  if (!(end > start)) return '`end_at` must be after `start_at`.';
  if (end - start > MAX_DURATION_MS) return 'A booking can last at most 24 hours.';
  return null;
}

export interface Interval {
  start_at: string;
  end_at: string;
}

/** Half-open intervals: a booking ending at 10:00 does not clash with one starting at 10:00. */
export const overlaps = (a: Interval, b: Interval) => Date.parse(a.start_at) < Date.parse(b.end_at) && Date.parse(b.start_at) < Date.parse(a.end_at);

export const DETAIL_FIELDS = ['service', 'notes', 'metadata', 'resource_id', 'timezone', 'conversation_id'] as const;
export const TIME_FIELDS = ['start_at', 'end_at'] as const;

export const BOOKING_FIELDS = [
  'id', 'tenant_id', 'customer', 'conversation_id', 'service', 'resource_id', 'start_at', 'end_at', 'timezone', 'notes', 'metadata',
  'status', 'cancellation', 'rescheduled_from', 'created_at', 'updated_at', 'version',
] as const satisfies readonly (keyof Booking)[];
