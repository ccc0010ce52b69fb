import { badRequest } from '../platform/errors';
import { dateOutOfRange } from '../platform/validation';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { answerableWindow, availabilityProblem, slotsWithin, windowLengthProblem } from './booking';
import { AvailabilityQuery } from './schemas';
import { MINUTE_MS, resourceAvailability } from './free-slots';

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
    const { busy, kept, closed, free, room, buffers } = await resourceAvailability(
      tenantId,
      query.resource_id,
      window,
      query.reschedule_booking_id,
    );
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
