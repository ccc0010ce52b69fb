import { badRequest } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { answerableWindow, availabilityProblem, busyWithin, freeWithin, slotsWithin } from './booking';
import { AvailabilityQuery } from './schemas';
import { heldIntervals } from './store';

const MINUTE_MS = 60_000;

/**
 * A resource's busy and free time in a window (from 24 hours ago on: `from` is moved up to there), and
 * with `duration_minutes` the slots still bookable.
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
    const held = await heldIntervals(tenantPrincipal(principal).tenant.id, query.resource_id, window);
    const busy = busyWithin(
      window,
      held.filter((h) => h.id !== query.reschedule_booking_id),
    );
    const free = freeWithin(window, busy);
    return {
      status: 200,
      body: {
        resource_id: query.resource_id,
        from: window.start_at,
        to: window.end_at,
        busy,
        free,
        slots: slot ? slotsWithin(query.from, free, slot.duration, slot.step, now) : null,
      },
    };
  },
);
