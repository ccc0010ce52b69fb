// Public: the booking rules (pure), which the assistant reads.
/** Bookings: lifecycle and time rules, pure. */
import type { CustomerRef } from '../customers/customer';
import type { EventType } from '../events/catalog';

/** `pending_payment`: waiting for its payment link to be paid, holding its slot meanwhile. */
export const BOOKING_STATUSES = [
  'pending',
  'pending_payment',
  'confirmed',
  'cancelled',
  'completed',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Only these hold their time slot. */
export const isActive = (status: BookingStatus) =>
  status === 'pending' || status === 'pending_payment' || status === 'confirmed';

export const TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  pending_payment: ['confirmed', 'cancelled'],
  confirmed: ['completed', 'cancelled', 'no_show'],
  cancelled: [],
  completed: [],
  no_show: [],
};

export function transitionProblem(from: BookingStatus, to: BookingStatus): string | null {
  if (from === to || TRANSITIONS[from].includes(to)) return null;
  const allowed = TRANSITIONS[from];
  return allowed.length
    ? `A ${from} booking can move to ${allowed.join(', ')}, not ${to}.`
    : `A ${from} booking cannot change status.`;
}

/** How a booking went (completed, no_show) is known only once it has started. */
export function outcomeProblem(to: BookingStatus, startAt: string, now: Date): string | null {
  if (to !== 'completed' && to !== 'no_show') return null;
  return Date.parse(startAt) > now.getTime() ? `A booking can be marked ${to} once it has started.` : null;
}

export const MAX_DURATION_MS = 24 * 3600 * 1000;

/**
 * An active booking of a resource must end after this horizon (older ones are history: record them
 * without a resource), so slot items of the distant past are never claimed again.
 */
export const SCHEDULE_HORIZON_MS = 24 * 3600 * 1000;
export const beforeScheduleHorizon = (endAt: string, now: Date) =>
  Date.parse(endAt) <= now.getTime() - SCHEDULE_HORIZON_MS;

/**
 * Time a resource keeps free around its bookings (set on its schedule): a booking holds the resource from
 * `buffer_before_minutes` before its start to `buffer_after_minutes` after its end, so two bookings are at
 * least the one's after and the other's before apart. A booking keeps the buffers it took its slot with.
 */
export interface Buffers {
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}
export const MAX_BUFFER_MINUTES = 120;
export const NO_BUFFERS: Buffers = { buffer_before_minutes: 0, buffer_after_minutes: 0 };
const MINUTE_MS = 60_000;

/** The time a booking holds its resource: its own, widened by its buffers. */
export const heldTime = (b: Interval & Partial<Buffers>): Interval => ({
  start_at: new Date(Date.parse(b.start_at) - (b.buffer_before_minutes ?? 0) * MINUTE_MS).toISOString(),
  end_at: new Date(Date.parse(b.end_at) + (b.buffer_after_minutes ?? 0) * MINUTE_MS).toISOString(),
});

export interface Booking extends Buffers {
  id: string;
  tenant_id: string;
  customer: CustomerRef;
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
  /** The payment the booking was made to wait for (payments/), if any. */
  payment: BookingPayment | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** What a booking keeps of the payment it requires: which one, and what for. Its state is the payment's. */
export interface BookingPayment {
  id: string;
  purpose: 'deposit' | 'full';
  amount: number;
  currency: string;
}

export type BookingActor = { type: 'customer' | 'user' | 'api_key' | 'system'; id: string };

export const STATUS_EVENTS: Partial<Record<BookingStatus, EventType>> = {
  confirmed: 'booking.confirmed',
  completed: 'booking.completed',
  cancelled: 'booking.cancelled',
};

/**
 * A booking moved to a new status by something other than a PATCH (its payment, its payment's expiry):
 * the new version and its status event's type and changes.
 */
export function withStatus(
  before: Booking,
  status: 'confirmed' | 'cancelled',
  reason: string | null,
  by: BookingActor,
  now: Date,
) {
  const at = now.toISOString();
  const after: Booking = {
    ...before,
    status,
    cancellation: status === 'cancelled' ? { reason, at, by } : before.cancellation,
    updated_at: at,
    version: before.version + 1,
  };
  return { after, type: STATUS_EVENTS[status] as EventType, changes: { status: { from: before.status, to: status } } };
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
export const overlaps = (a: Interval, b: Interval) =>
  Date.parse(a.start_at) < Date.parse(b.end_at) && Date.parse(b.start_at) < Date.parse(a.end_at);

/**
 * A resource's time is cut into hours, and an hour that a booking only partly covers into quarters.
 * A booking claims each hour it covers whole (`full`); in an hour it covers in part it joins the hour's
 * `partial` set and claims the quarters it touches: `head` if it covers the quarter's start, `tail` if it
 * only covers its end, `inner` if it lies strictly inside. Two overlapping bookings always meet in a
 * bucket: in an hour (full against anything) or in a quarter. A bucket has at most one full, head and
 * tail, so disjoint bookings in one bucket (a head ending where a tail starts) write different fields.
 */
export const HOUR_MS = 3_600_000;
export const QUARTER_MS = 900_000;

export type SlotClaim =
  | { bucket: 'hour'; start: string; end: string; role: 'full' | 'partial' }
  | { bucket: 'quarter'; start: string; end: string; role: 'head' | 'tail' | 'inner' };
export type SlotRole = SlotClaim['role'];

const iso = (ms: number) => new Date(ms).toISOString();
/** The start of the hour an instant (epoch ms) falls in. */
const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
/** The hour bucket an instant falls in, as its start. */
export const hourOf = (at: string) => iso(hourStart(Date.parse(at)));

/** The longest a booking holds its resource: a day and two buffers. */
export const MAX_HELD_MS = MAX_DURATION_MS + 2 * MAX_BUFFER_MINUTES * MINUTE_MS;

/**
 * The buckets an interval claims: at most 27 full hours, 2 partial ones and 8 quarters (a booking holds at
 * most 28 hours: a day and two buffers), so a move's old and new claims fit in one transaction.
 */
export function slotClaims(interval: Interval): SlotClaim[] {
  const s = Date.parse(interval.start_at);
  const e = Date.parse(interval.end_at);
  // Bookings are refused long before (timeProblem, the buffers' bound): never walk an unbounded span.
  if (!(e - s <= MAX_HELD_MS)) throw new RangeError('a booking holds its resource for at most 28 hours');
  const claims: SlotClaim[] = [];
  for (let h = hourStart(s); h < e; h += HOUR_MS) {
    if (s <= h && e >= h + HOUR_MS) {
      claims.push({ bucket: 'hour', start: iso(h), end: iso(h + HOUR_MS), role: 'full' });
      continue;
    }
    claims.push({ bucket: 'hour', start: iso(h), end: iso(h + HOUR_MS), role: 'partial' });
    for (let q = Math.floor(Math.max(s, h) / QUARTER_MS) * QUARTER_MS; q < Math.min(e, h + HOUR_MS); q += QUARTER_MS) {
      const role = s <= q ? 'head' : e >= q + QUARTER_MS ? 'tail' : 'inner';
      claims.push({ bucket: 'quarter', start: iso(q), end: iso(q + QUARTER_MS), role });
    }
  }
  return claims;
}

/**
 * A booking taking a slot now ends after the horizon and holds at most a day and its buffer, so no claim ever touches
 * a bucket that ended longer ago than this: such buckets need no release and may expire.
 */
export const SLOT_LIFETIME_MS = SCHEDULE_HORIZON_MS + MAX_DURATION_MS + MAX_BUFFER_MINUTES * 60_000;
export const slotIsDead = (claim: Pick<SlotClaim, 'end'>, now: Date) =>
  Date.parse(claim.end) <= now.getTime() - SLOT_LIFETIME_MS;

/**
 * What a new booking with these buffers must stay clear of, as time its own (unbuffered) interval must not
 * overlap: each other booking's held time widened by the new one's after-buffer before it and its
 * before-buffer after it.
 */
export const blockedFor = (held: readonly Interval[], buffers: Buffers): Interval[] =>
  held.map((h) =>
    heldTime({
      start_at: h.start_at,
      end_at: h.end_at,
      buffer_before_minutes: buffers.buffer_after_minutes,
      buffer_after_minutes: buffers.buffer_before_minutes,
    }),
  );

/** A booking as a slot item holds it: the time it holds, and its own time when that differs (buffers). */
export interface Holder extends Interval {
  id: string;
  booked?: Interval;
}

/** The earliest interval held by another booking that overlaps `interval`, if any. */
export function firstClash(holders: Holder[], interval: Interval, self: string): Holder | undefined {
  return holders
    .filter((h) => h.id !== self && overlaps(h, interval))
    .sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at))[0];
}

export const DETAIL_FIELDS = ['service', 'notes', 'metadata', 'resource_id', 'timezone', 'conversation_id'] as const;
export const TIME_FIELDS = ['start_at', 'end_at'] as const;

export const BOOKING_FIELDS = [
  'id',
  'tenant_id',
  'customer',
  'conversation_id',
  'service',
  'resource_id',
  'start_at',
  'end_at',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'timezone',
  'notes',
  'metadata',
  'status',
  'cancellation',
  'rescheduled_from',
  'payment',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof Booking)[];

/** The longest window one availability request covers, and the most slot starts it may ask to try. */
export const AVAILABILITY_MAX_WINDOW_MS = 31 * 24 * HOUR_MS;
export const AVAILABILITY_MAX_SLOT_STARTS = 3000;

/** Why an availability window is longer than one request covers, if it is: a bound (422 date_out_of_range). */
export const windowLengthProblem = (window: Interval): string | null =>
  Date.parse(window.end_at) - Date.parse(window.start_at) > AVAILABILITY_MAX_WINDOW_MS
    ? 'must be at most 31 days after `from`'
    : null;

/**
 * Why an availability window (and slot step, when slots are asked for) cannot be answered, if it cannot
 * (its length is windowLengthProblem's).
 */
export function availabilityProblem(window: Interval, stepMs: number | undefined, now: Date): string | null {
  const span = Date.parse(window.end_at) - Date.parse(window.start_at);
  if (!(span > 0)) return '`to` must be after `from`.';
  if (beforeScheduleHorizon(window.end_at, now))
    return 'The schedule covers the last 24 hours and the future: `to` must be later than 24 hours ago.';
  if (stepMs !== undefined && span / stepMs > AVAILABILITY_MAX_SLOT_STARTS)
    return `That asks for more than ${AVAILABILITY_MAX_SLOT_STARTS} slot starts: narrow the window or lengthen the step.`;
  return null;
}

/**
 * The part of a window the schedule can answer for: from the horizon on. Older hours are history, whose
 * slot items are no longer kept in step (a booking ended or cancelled since may still sit in them).
 */
export function answerableWindow(window: Interval, now: Date): Interval {
  const horizon = now.getTime() - SCHEDULE_HORIZON_MS;
  return Date.parse(window.start_at) >= horizon ? window : { start_at: iso(horizon), end_at: window.end_at };
}

/** Intervals clipped to the window, overlapping or touching ones merged, in order (busy time, opening hours). */
export function mergedWithin(window: Interval, intervals: Interval[]): Interval[] {
  const from = Date.parse(window.start_at);
  const to = Date.parse(window.end_at);
  const spans = intervals
    .map((h) => [Math.max(from, Date.parse(h.start_at)), Math.min(to, Date.parse(h.end_at))] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of spans) {
    const last = merged.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged.map(([s, e]) => ({ start_at: iso(s), end_at: iso(e) }));
}

/** The gaps between merged intervals (from mergedWithin) inside the window: free time, closed time. */
export function gapsWithin(window: Interval, merged: Interval[]): Interval[] {
  const gaps: Interval[] = [];
  let cursor = window.start_at;
  for (const m of merged) {
    if (Date.parse(m.start_at) > Date.parse(cursor)) gaps.push({ start_at: cursor, end_at: m.start_at });
    cursor = m.end_at;
  }
  if (Date.parse(window.end_at) > Date.parse(cursor)) gaps.push({ start_at: cursor, end_at: window.end_at });
  return gaps;
}

/**
 * Bookable slots of `durationMs`, starting every `stepMs` from `gridStart` (the start asked for), that fit
 * wholly in a free interval and do not start before `notBefore` (a slot already begun is no use to offer).
 */
export function slotsWithin(
  gridStart: string,
  free: Interval[],
  durationMs: number,
  stepMs: number,
  notBefore: Date,
): Interval[] {
  const origin = Date.parse(gridStart);
  const earliest = notBefore.getTime();
  const slots: Interval[] = [];
  for (const f of free) {
    const s = Date.parse(f.start_at);
    const e = Date.parse(f.end_at);
    const first = Math.max(s, earliest);
    // availabilityProblem bounds the slot starts a request may ask for; the loop keeps to that bound too.
    for (
      let t = origin + Math.ceil((first - origin) / stepMs) * stepMs;
      t + durationMs <= e && slots.length < AVAILABILITY_MAX_SLOT_STARTS;
      t += stepMs
    ) {
      slots.push({ start_at: iso(t), end_at: iso(t + durationMs) });
    }
  }
  return slots;
}
