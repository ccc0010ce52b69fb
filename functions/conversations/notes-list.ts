import { httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { toPage } from '../platform/pagination';
import { ListNotesQuery } from './schemas';
import { getConversation } from './store';
import { listNotes } from './note-store';

/** The team's notes on a conversation, newest first. */
export const handler = httpHandler('notes-list', { query: ListNotesQuery }, async ({ params, query, principal }) => {
  const tenantId = tenantPrincipal(principal).tenant.id;
  const id = params.id ?? '';
  if (!isId('conv', id)) throw notFound('The conversation');
  // A cursor is bound to this conversation, so only the first page needs the existence check (read beside it).
  const [found, page] = await Promise.all([
    query.cursor ? true : getConversation(tenantId, id),
    listNotes(tenantId, id, query),
  ]);
  if (!found) throw notFound('The conversation');
  return { status: 200, body: toPage(page.items, query.limit, page) };
});
