import { senderOf } from '../auth/principal';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { DomainError } from '../platform/domain-error';
import { forbidden, notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { EditNoteBody } from './schemas';
import { editNote } from './note-store';

/**
 * Only a note's author changes its text (an admin may delete it, not put words in someone's mouth). The
 * same text again changes nothing: the note is answered as it is, `edited_at` untouched. If-Match names the
 * version the edit was made on (412 when it moved).
 */
export const handler = httpHandler(
  'notes-update',
  { body: EditNoteBody },
  async ({ params, body, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    const noteId = params.note_id ?? '';
    if (!isId('conv', id) || !isId('note', noteId)) throw notFound('The note');
    const outcome = await editNote(
      caller.tenant.id,
      id,
      noteId,
      senderOf(caller),
      body.text,
      ifMatchVersion(event),
      now,
    );
    if (outcome === 'not_found') throw notFound('The note');
    if (outcome === 'not_author') throw forbidden('not_note_author', 'Only the note\u2019s author can edit it.');
    if (outcome === 'version_mismatch') throw DomainError.versionMismatch();
    return { status: 200, headers: etag(outcome.version), body: outcome };
  },
);
