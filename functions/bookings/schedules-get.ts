import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { getSchedule } from './schedule-store';
import { resourceIdOf } from './schedule-schemas';

export const handler = httpHandler('schedules-get', {}, async ({ params, principal }) => {
  const resourceId = resourceIdOf(params);
  const schedule = resourceId ? await getSchedule(tenantPrincipal(principal).tenant.id, resourceId) : undefined;
  if (!schedule) throw notFound('The schedule');
  return { status: 200, headers: etag(schedule.version), body: schedule };
});
