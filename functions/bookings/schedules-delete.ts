import { httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { deleteSchedule } from './schedule-store';
import { resourceIdOf } from './schedule-schemas';

/** The resource is open at all times again; its bookings stay as they are. */
export const handler = httpHandler('schedules-delete', {}, async ({ params, principal, event }) => {
  const resourceId = resourceIdOf(params);
  if (!resourceId) throw notFound('The schedule');
  await deleteSchedule(tenantPrincipal(principal).tenant.id, resourceId, ifMatchVersion(event));
  return { status: 204 };
});
