import type { Sender, TenantPrincipal } from '../auth/principal';
import { conversationFromItem, conversationKey } from '../conversations/store';
import { tableName } from '../platform/config';
import { getMany } from '../platform/db';
import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { retryOnConflict } from '../platform/retry';
import { userFromItem, userKey } from '../users/store';
import { fillPlaceholders, placeholderValues, type SavedReply } from './saved-reply';
import {
  SavedReplyChanged,
  deleteSavedReply,
  getSavedReply,
  savedReplyFromItem,
  savedReplyKey,
  writeSavedReply,
  type ShortcutTaken,
} from './store';

export interface SavedReplyInput {
  shortcut: string;
  title: string;
  text: string;
}

const shortcutTaken = (shortcut: string, taken: ShortcutTaken) =>
  DomainError.conflict('shortcut_taken', `The shortcut /${shortcut} is already used by saved reply ${taken.takenBy}.`);

/** Read again and retry when another writer got in first; after five, 409 concurrent_update. */
const retryWhileChanging = <T>(operation: () => Promise<T>) =>
  retryOnConflict(operation, {
    attempts: 5,
    retryable: (error) => error instanceof SavedReplyChanged,
    exhausted: () => DomainError.conflict('concurrent_update', 'The saved reply is changing too fast; retry.'),
  });

export async function createSavedReply(
  tenantId: string,
  input: SavedReplyInput,
  author: Sender,
  now: Date,
): Promise<SavedReply> {
  const at = now.toISOString();
  const reply: SavedReply = {
    id: newId('rpl'),
    tenant_id: tenantId,
    ...input,
    created_by: author,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  // A transaction conflict (another write of the same shortcut in flight) is retried: then the claim is
  // either free, or taken (409).
  return retryWhileChanging(async () => {
    const taken = await writeSavedReply(undefined, reply);
    if (taken) throw shortcutTaken(reply.shortcut, taken);
    return reply;
  });
}

/**
 * Changes a reply's shortcut, title or text. Values equal to the stored ones change nothing (no new
 * version); If-Match, when given, must name the version stored.
 */
export function updateSavedReply(
  tenantId: string,
  id: string,
  patch: Partial<SavedReplyInput>,
  expectedVersion: number | undefined,
  now: Date,
): Promise<SavedReply> {
  return retryWhileChanging(async () => {
    const before = await getSavedReply(tenantId, id);
    if (!before) throw DomainError.notFound('The saved reply');
    if (expectedVersion !== undefined && expectedVersion !== before.version) throw DomainError.versionMismatch();
    const after: SavedReply = { ...before, ...patch };
    if (after.shortcut === before.shortcut && after.title === before.title && after.text === before.text) return before;
    after.version = before.version + 1;
    after.updated_at = now.toISOString();
    // Lost to another writer: read again; a version that moved is then 412 above.
    const taken = await writeSavedReply(before, after);
    if (taken) throw shortcutTaken(after.shortcut, taken);
    return after;
  });
}

export function removeSavedReply(tenantId: string, id: string): Promise<void> {
  return retryWhileChanging(async () => {
    const reply = await getSavedReply(tenantId, id);
    if (!reply) throw DomainError.notFound('The saved reply');
    await deleteSavedReply(reply);
  });
}

/**
 * The reply's text with its placeholders filled in for a conversation: its customer, and the user asking
 * (an API key has no name, so `agent.*` fall back). The reply, the conversation and the user are one
 * BatchGetItem.
 */
export async function renderSavedReply(
  caller: TenantPrincipal,
  id: string,
  conversationId: string,
): Promise<{ text: string; missing: string[] }> {
  const t = caller.tenant.id;
  const [replyItem, conversationItem, userItem] = await getMany(tableName('main'), [
    savedReplyKey(t, id),
    conversationKey(t, conversationId),
    ...(caller.kind === 'user' ? [userKey(t, caller.userId)] : []),
  ]);
  if (!replyItem) throw DomainError.notFound('The saved reply');
  if (!conversationItem) throw DomainError.notFound('The conversation');
  const customer = conversationFromItem(conversationItem).customer;
  const agentName = userItem ? userFromItem(userItem).name : null;
  return fillPlaceholders(savedReplyFromItem(replyItem).text, placeholderValues(customer, agentName));
}
