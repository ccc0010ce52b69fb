import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { answerableWindow, availabilityProblem, gapsWithin, mergedWithin, slotsWithin } from './booking';
import { openWithin } from './schedule';
import { getSchedule } from './schedule-store';
import { AvailabilityQuery } from './schemas';
import { heldIntervals } from './store';

const MINUTE_MS = 60_000;

/**
 * A resource's busy, closed (outside its opening hours) and free time in a window (from 24 hours ago on:
 * `from` is moved up to there), and with `duration_minutes` the slots still bookable.
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
    const problem = availabilityProblem(asked, slot?.step, now);
    if (problem) throw badRequest('invalid_query', problem);
    const window = answerableWindow(asked, now);
    const tenantId = tenantPrincipal(principal).tenant.id;
    const [held, schedule] = await Promise.all([
      heldIntervals(tenantId, query.resource_id, window),
      getSchedule(tenantId, query.resource_id),
    ]);
    const busy = mergedWithin(
      window,
      held.filter((h) => h.id !== query.reschedule_booking_id),
    );
    const closed = schedule ? gapsWithin(window, openWithin(schedule, window)) : [];
    const free = gapsWithin(window, mergedWithin(window, [...busy, ...closed]));
    return {
      status: 200,
      body: {
        resource_id: query.resource_id,
        from: window.start_at,
        to: window.end_at,
        busy,
        closed,
        free,
        slots: slot ? slotsWithin(query.from, free, slot.duration, slot.step, now) : null,
      },
    };
  },
);
