import { badRequest } from '../platform/errors';
import { dateOutOfRange } from '../platform/validation';
import { httpHandler, tenantPrincipal } from '../http/handler';
import {
  MAX_BUFFER_MINUTES,
  NO_BUFFERS,
  answerableWindow,
  availabilityProblem,
  blockedFor,
  gapsWithin,
  mergedWithin,
  slotsWithin,
  windowLengthProblem,
} from './booking';
import { openWithin } from './schedule';
import { getSchedule } from './schedule-store';
import { AvailabilityQuery } from './schemas';
import { heldIntervals } from './store';

const MINUTE_MS = 60_000;

/**
 * A resource's busy (booked), held (booked and the bookings' buffers), closed (outside its opening hours)
 * and free time in a window (from 24 hours ago on: `from` is moved up to there), and with `duration_minutes` the slots
 * still bookable, with room for the buffers a booking made now would take.
 */
export const handler = httpHandler(
  'bookings-availability',
  { query: AvailabilityQuery },
  async ({ query, principal, now }) => {
    if (query.step_minutes !== undefined && query.duration_minutes === undefined)
      throw badRequest('invalid_query', '`step_minutes` needs `duration_minutes`.');
    const asked = { start_at: query.from, end_at: query.to };
    const slot =
      query.duration_minutes === undefined
        ? undefined
        : {
            duration: query.duration_minutes * MINUTE_MS,
            step: (query.step_minutes ?? query.duration_minutes) * MINUTE_MS,
          };
    const tooLong = windowLengthProblem(asked);
    if (tooLong) throw dateOutOfRange([{ path: 'to', message: tooLong }]);
    const problem = availabilityProblem(asked, slot?.step, now);
    if (problem) throw badRequest('invalid_query', problem);
    const window = answerableWindow(asked, now);
    const tenantId = tenantPrincipal(principal).tenant.id;
    // Read together, so the bookings just outside the window are read for any buffers the schedule sets.
    const [held, schedule] = await Promise.all([
      heldIntervals(tenantId, query.resource_id, {
        start_at: new Date(Date.parse(window.start_at) - MAX_BUFFER_MINUTES * MINUTE_MS).toISOString(),
        end_at: new Date(Date.parse(window.end_at) + MAX_BUFFER_MINUTES * MINUTE_MS).toISOString(),
      }),
      getSchedule(tenantId, query.resource_id),
    ]);
    const others = held.filter((h) => h.id !== query.reschedule_booking_id);
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
    return {
      status: 200,
      body: {
        resource_id: query.resource_id,
        from: window.start_at,
        to: window.end_at,
        buffer_before_minutes: buffers.buffer_before_minutes,
        buffer_after_minutes: buffers.buffer_after_minutes,
        busy,
        held: kept,
        closed,
        free,
        slots: slot ? slotsWithin(query.from, room, slot.duration, slot.step, now) : null,
      },
    };
  },
);
