import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { toPage } from '../platform/pagination';
import { ListMessagesQuery } from './schemas';
import { getConversation } from './store';
import { listMessages } from './message-store';
import { withDownloadUrls } from '../media/downloads';

export const handler = httpHandler(
  'messages-list',
  { query: ListMessagesQuery },
  async ({ params, query, principal, now }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const id = params.id ?? '';
    // A cursor is bound to this conversation, so only the first page needs the existence check.
    if (!isId('conv', id) || (!query.cursor && !(await getConversation(tenantId, id))))
      throw notFound('The conversation');
    const page = await listMessages(tenantId, id, query);
    return { status: 200, body: toPage(await withDownloadUrls(page.items, now), query.limit, page) };
  },
);
