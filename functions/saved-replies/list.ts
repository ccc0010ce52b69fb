import { httpHandler, tenantPrincipal } from '../http/handler';
import { toPage } from '../platform/pagination';
import { ListSavedRepliesQuery } from './schemas';
import { listSavedReplies } from './store';

/** The tenant's saved replies, A to Z by shortcut; `shortcut` narrows them to those it starts. */
export const handler = httpHandler(
  'saved-replies-list',
  { query: ListSavedRepliesQuery },
  async ({ query, principal }) => {
    const page = await listSavedReplies(tenantPrincipal(principal).tenant.id, query);
    return { status: 200, body: toPage(page.items, query.limit, page) };
  },
);
