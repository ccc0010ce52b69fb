import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListConversationsQuery } from './schemas';
import { listConversations } from './store';

/** Newest activity first; `status` combines with one of `tag`, `channel`, `customer_id`, `assignee_id`. */
export const handler = httpHandler(
  'conversations-list',
  { query: ListConversationsQuery },
  async ({ query, principal }) => {
    const { limit, cursor, ...filters } = query;
    const page = await listConversations(tenantPrincipal(principal).tenant.id, filters, { limit, cursor });
    return { status: 200, body: toPage(page.items, limit, page) };
  },
);
