import { senderOf } from '../auth/principal';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { AddNoteBody } from './schemas';
import { addNote } from './service';

/** A note for the team: stored with its author, never sent to the customer; no event. */
export const handler = httpHandler('notes-create', { body: AddNoteBody }, async ({ params, body, principal, now }) => {
  const caller = tenantPrincipal(principal);
  const id = params.id ?? '';
  if (!isId('conv', id)) throw notFound('The conversation');
  const note = await addNote(caller.tenant.id, id, body.text, senderOf(caller), now);
  return { status: 201, headers: etag(note.version), body: note };
});
