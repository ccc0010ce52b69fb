import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListTemplatesQuery } from './schemas';
import { listTemplates } from './store';

/** The tenant's templates, newest first, with their review statuses. */
export const handler = httpHandler('templates-list', { query: ListTemplatesQuery }, async ({ query, principal }) => {
  const page = await listTemplates(tenantPrincipal(principal).tenant.id, query);
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
