import { senderOf } from '../auth/principal';
import { httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { DomainError } from '../platform/domain-error';
import { forbidden, notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { deleteNote } from './note-store';

/** A note's author deletes it; an admin may delete anyone's. If-Match names the version read (412 when it moved). */
export const handler = httpHandler('notes-delete', {}, async ({ params, principal, event }) => {
  const caller = tenantPrincipal(principal);
  const id = params.id ?? '';
  const noteId = params.note_id ?? '';
  if (!isId('conv', id) || !isId('note', noteId)) throw notFound('The note');
  const outcome = await deleteNote(
    caller.tenant.id,
    id,
    noteId,
    caller.role === 'admin' ? undefined : senderOf(caller),
    ifMatchVersion(event),
  );
  if (outcome === 'not_found') throw notFound('The note');
  if (outcome === 'not_author')
    throw forbidden('not_note_author', 'Only the note\u2019s author or an admin can delete it.');
  if (outcome === 'version_mismatch') throw DomainError.versionMismatch();
  return { status: 204 };
});
