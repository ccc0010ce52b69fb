// Public: a resource's nearest free slots, for the reminders' reschedule offers.
import {
  MAX_BUFFER_MINUTES,
  NO_BUFFERS,
  blockedFor,
  gapsWithin,
  mergedWithin,
  slotsWithin,
  type Interval,
} from './booking';
import { openWithin } from './schedule';
import { getSchedule } from './schedule-store';
import { heldIntervals } from './store';

export const MINUTE_MS = 60_000;

/**
 * A resource's time in a window: busy (booked), held (booked and the bookings' buffers), closed (outside
 * its opening hours), free, and the room a new booking's own time may take (clear of other bookings'
 * buffers and inside opening hours). `excludeBookingId`: a booking being rescheduled does not block itself.
 */
export async function resourceAvailability(
  tenantId: string,
  resourceId: string,
  window: Interval,
  excludeBookingId?: string,
) {
  // Read together, so the bookings just outside the window are read for any buffers the schedule sets.
  const [held, schedule] = await Promise.all([
    heldIntervals(tenantId, resourceId, {
      start_at: new Date(Date.parse(window.start_at) - MAX_BUFFER_MINUTES * MINUTE_MS).toISOString(),
      end_at: new Date(Date.parse(window.end_at) + MAX_BUFFER_MINUTES * MINUTE_MS).toISOString(),
    }),
    getSchedule(tenantId, resourceId),
  ]);
  const others = held.filter((h) => h.id !== excludeBookingId);
  const busy = mergedWithin(
    window,
    others.map((h) => h.booked ?? h),
  );
  const kept = mergedWithin(window, others);
  const closed = schedule ? gapsWithin(window, openWithin(schedule, window)) : [];
  const free = gapsWithin(window, mergedWithin(window, [...kept, ...closed]));
  // A slot is a booking's own time, which must be open; its buffers must only stay clear of other bookings.
  const buffers = schedule ?? NO_BUFFERS;
  const room = gapsWithin(window, mergedWithin(window, [...blockedFor(others, buffers), ...closed]));
  return { busy, kept, closed, free, room, buffers };
}

/**
 * The first `count` slots a booking could move to, from `from` on within `days`: the booking's own length,
 * on a grid of `stepMinutes`, free on its resource (any time for a booking with no resource).
 */
export async function nearestSlots(
  booking: { id: string; tenant_id: string; resource_id: string | null; start_at: string; end_at: string },
  from: Date,
  count: number,
  now: Date,
  days = 7,
  stepMinutes = 30,
): Promise<Interval[]> {
  const grid = new Date(Math.ceil(from.getTime() / (stepMinutes * MINUTE_MS)) * stepMinutes * MINUTE_MS);
  const window = { start_at: grid.toISOString(), end_at: new Date(grid.getTime() + days * 86_400_000).toISOString() };
  const room = booking.resource_id
    ? (await resourceAvailability(booking.tenant_id, booking.resource_id, window, booking.id)).room
    : [window];
  const duration = Date.parse(booking.end_at) - Date.parse(booking.start_at);
  return slotsWithin(window.start_at, room, duration, stepMinutes * MINUTE_MS, now)
    .filter((s) => s.start_at !== booking.start_at)
    .slice(0, count);
}
