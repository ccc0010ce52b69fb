import { senderOf } from '../auth/principal';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { forbidden, notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { deleteNote } from './store';

/** A note's author deletes it; an admin may delete anyone's. */
export const handler = httpHandler('notes-delete', {}, async ({ params, principal }) => {
  const caller = tenantPrincipal(principal);
  const id = params.id ?? '';
  const noteId = params.note_id ?? '';
  if (!isId('conv', id) || !isId('note', noteId)) throw notFound('The note');
  const outcome = await deleteNote(
    caller.tenant.id,
    id,
    noteId,
    caller.role === 'admin' ? undefined : senderOf(caller),
  );
  if (outcome === 'not_found') throw notFound('The note');
  if (outcome === 'not_author')
    throw forbidden('not_note_author', 'Only the note\u2019s author or an admin can delete it.');
  return { status: 204 };
});
