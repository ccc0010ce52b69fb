import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateScheduleBody } from './schedule-schemas';
import { createSchedule } from './schedule-service';

/** A resource's opening hours; 409 `schedule_exists` when it has them already. */
export const handler = httpHandler(
  'schedules-create',
  { body: CreateScheduleBody },
  async ({ body, principal, now }) => {
    const schedule = await createSchedule(tenantPrincipal(principal).tenant.id, body, now);
    return {
      status: 201,
      headers: {
        ...etag(schedule.version),
        Location: `/api/v1/schedules/${encodeURIComponent(schedule.resource_id)}`,
      },
      body: schedule,
    };
  },
);
