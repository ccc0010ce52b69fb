import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { UpdateScheduleBody, resourceIdOf } from './schedule-schemas';
import { changeSchedule } from './schedule-service';

export const handler = httpHandler(
  'schedules-update',
  { body: UpdateScheduleBody },
  async ({ params, body, principal, now, event }) => {
    const resourceId = resourceIdOf(params);
    if (!resourceId) throw notFound('The schedule');
    const schedule = await changeSchedule(
      tenantPrincipal(principal).tenant.id,
      resourceId,
      body,
      ifMatchVersion(event),
      now,
    );
    return { status: 200, headers: etag(schedule.version), body: schedule };
  },
);
