import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListSchedulesQuery } from './schedule-schemas';
import { listSchedules } from './schedule-store';

/** The tenant's schedules (opening hours), A to Z by resource. */
export const handler = httpHandler('schedules-list', { query: ListSchedulesQuery }, async ({ query, principal }) => {
  const page = await listSchedules(tenantPrincipal(principal).tenant.id, query);
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
