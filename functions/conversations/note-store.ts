import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Sender } from '../auth/principal';
import { db, refusedItem } from '../platform/db';
import { tableName } from '../platform/config';
import { tenantPk } from '../platform/keys';
import { tenantItemsPage } from '../platform/pagination';
import { inOrder } from '../platform/fields';
import { NOTE_FIELDS, type Note } from './conversation';
import { getConversation } from './store';

/** Team notes on a conversation: pk TENANT#<t>, sk CONVNOTE#<conversation id>#<ulid> (see store.ts). */

const noteKey = (tenantId: string, conversationId: string, id: string) => ({
  pk: tenantPk(tenantId),
  sk: `CONVNOTE#${conversationId}#${id}`,
});
/** Notes stored before versions have none: they read as version 1. */
const noteFromItem = (item: Record<string, unknown>): Note =>
  inOrder<Note>({ version: 1, edited_at: null, ...item }, NOTE_FIELDS);

/**
 * Stores a note if its conversation exists; false when it does not. A strongly consistent read, then the
 * note's own Put: conversations are never deleted, so the read cannot go stale, and no write to the
 * conversation is ever held up (a transaction checking the conversation would conflict with them).
 */
export async function putNote(note: Note): Promise<boolean> {
  if (!(await getConversation(note.tenant_id, note.conversation_id))) return false;
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...noteKey(note.tenant_id, note.conversation_id, note.id), ...note },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return true;
}

/**
 * The note exists, `author` (when given) wrote it, and it is at `version` (when given; a note stored
 * before versions is at 1).
 */
function noteCondition(author: Sender | undefined, version: number | undefined) {
  const conditions = ['attribute_exists(pk)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (author) {
    conditions.push('#author.#type = :authorType AND #author.#id = :authorId');
    Object.assign(names, { '#author': 'author', '#type': 'type', '#id': 'id' });
    Object.assign(values, { ':authorType': author.type, ':authorId': author.id });
  }
  if (version !== undefined) {
    conditions.push(version === 1 ? '(attribute_not_exists(version) OR version = :version)' : 'version = :version');
    values[':version'] = version;
  }
  return { conditions, names, values };
}

/** Why a note refused a conditional write: gone, another author's, or at another version than asked for. */
function refusal(
  found: Record<string, unknown> | undefined,
  author: Sender | undefined,
  version: number | undefined,
): 'not_found' | 'not_author' | 'version_mismatch' | Note {
  if (!found) return 'not_found';
  const note = noteFromItem(found);
  if (author && (note.author.type !== author.type || note.author.id !== author.id)) return 'not_author';
  if (version !== undefined && note.version !== version) return 'version_mismatch';
  return note;
}

/**
 * Deletes a note of the conversation, on condition that `author` wrote it (any author when undefined) and
 * that it is at `version` (If-Match): one conditional Delete, whose refusal says why.
 */
export async function deleteNote(
  tenantId: string,
  conversationId: string,
  noteId: string,
  author: Sender | undefined,
  version: number | undefined,
): Promise<'deleted' | 'not_found' | 'not_author' | 'version_mismatch'> {
  const { conditions, names, values } = noteCondition(author, version);
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName('main'),
        Key: noteKey(tenantId, conversationId, noteId),
        ConditionExpression: conditions.join(' AND '),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'deleted';
  } catch (error) {
    const why = refusal(refusedItem(error), author, version);
    // Refused although author and version hold: it went between the write and the read.
    return typeof why === 'string' ? why : 'not_found';
  }
}

/**
 * Replaces a note's text, on condition that `author` wrote it, that it is at `version` (If-Match, when
 * given) and that the text differs: one conditional Update, which returns the note as it now is, one
 * version on. Refused, the item found says why: the same text (the note, unchanged and not marked
 * edited), another author's note, another version, or none.
 */
export async function editNote(
  tenantId: string,
  conversationId: string,
  noteId: string,
  author: Sender,
  text: string,
  version: number | undefined,
  now: Date,
): Promise<Note | 'not_found' | 'not_author' | 'version_mismatch'> {
  const { conditions, names, values } = noteCondition(author, version);
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: noteKey(tenantId, conversationId, noteId),
        UpdateExpression: 'SET #text = :text, edited_at = :at, version = if_not_exists(version, :one) + :one',
        ConditionExpression: [...conditions, '#text <> :text'].join(' AND '),
        ExpressionAttributeNames: { ...names, '#text': 'text' },
        ExpressionAttributeValues: { ...values, ':text': text, ':at': now.toISOString(), ':one': 1 },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return noteFromItem(out.Attributes ?? {});
  } catch (error) {
    return refusal(refusedItem(error), author, version);
  }
}

/** A page of a conversation's notes, newest first (their ids are ULIDs): one Query. */
export async function listNotes(tenantId: string, conversationId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(tenantId, `CONVNOTE#${conversationId}#`, `notes:${conversationId}`, request);
  return { ...page, items: page.items.map(noteFromItem) };
}
