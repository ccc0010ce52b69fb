import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, transactionConditionFailed, transactionConflicted, transactionRefusedItem } from '../platform/db';
import { tableName } from '../platform/config';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { queryPage } from '../platform/pagination';
import { SAVED_REPLY_FIELDS, type SavedReply } from './saved-reply';

/**
 * The only code that knows how saved replies are keyed. Each reply is two items of the same content:
 *   pk TENANT#<t>  sk REPLY#<id>            read by id
 *   pk TENANT#<t>  sk REPLYSC#<shortcut>    the shortcut's claim: one reply per shortcut, and the list,
 *                                           A to Z by shortcut (a prefix is one begins_with Query)
 * Every write changes both in one transaction, so they never disagree.
 */
export const savedReplyKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `REPLY#${id}` });
const shortcutKey = (tenantId: string, shortcut: string) => ({ pk: tenantPk(tenantId), sk: `REPLYSC#${shortcut}` });

export const savedReplyFromItem = (item: Record<string, unknown>): SavedReply =>
  inOrder<SavedReply>(item, SAVED_REPLY_FIELDS);

/** Another writer changed or deleted the reply since it was read: read it again. */
export class SavedReplyChanged extends Error {}

/** What a write answers when the shortcut it claims belongs to another reply. */
export interface ShortcutTaken {
  takenBy: string;
}

export async function getSavedReply(tenantId: string, id: string): Promise<SavedReply | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: savedReplyKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? savedReplyFromItem(out.Item) : undefined;
}

const put = (key: Record<string, string>, reply: SavedReply, condition: string, values?: Record<string, unknown>) => ({
  Put: {
    TableName: tableName('main'),
    Item: { ...key, ...reply },
    ConditionExpression: condition,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  },
});
const claimedBy = (id: string) => ({ ':id': id });

/**
 * Writes a reply: new (`before` undefined), or replacing `before` on condition that it is still the
 * version read. The shortcut's claim moves with it. Throws SavedReplyChanged when another writer got in
 * first; answers ShortcutTaken when another reply holds the shortcut.
 */
export async function writeSavedReply(
  before: SavedReply | undefined,
  after: SavedReply,
): Promise<ShortcutTaken | void> {
  const tenantId = after.tenant_id;
  const moves = before !== undefined && before.shortcut !== after.shortcut;
  const items = [
    before
      ? put(savedReplyKey(tenantId, after.id), after, 'version = :v', { ':v': before.version })
      : put(savedReplyKey(tenantId, after.id), after, 'attribute_not_exists(pk)'),
    !before || moves
      ? put(shortcutKey(tenantId, after.shortcut), after, 'attribute_not_exists(pk)')
      : put(shortcutKey(tenantId, after.shortcut), after, 'id = :id', claimedBy(after.id)),
    ...(before && moves
      ? [
          {
            Delete: {
              TableName: tableName('main'),
              Key: shortcutKey(tenantId, before.shortcut),
              ConditionExpression: 'id = :id',
              ExpressionAttributeValues: claimedBy(after.id),
            },
          },
        ]
      : []),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error, [0])) throw new SavedReplyChanged();
    const holder = transactionRefusedItem(error, 1);
    if (holder && holder.id !== after.id) return { takenBy: String(holder.id) };
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new SavedReplyChanged();
    throw error;
  }
}

/** Deletes a reply and its shortcut's claim, on condition that it is still the version read. */
export async function deleteSavedReply(reply: SavedReply): Promise<void> {
  const tenantId = reply.tenant_id;
  const remove = (key: Record<string, string>, condition: string, values: Record<string, unknown>) => ({
    Delete: {
      TableName: tableName('main'),
      Key: key,
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
    },
  });
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          remove(savedReplyKey(tenantId, reply.id), 'version = :v', { ':v': reply.version }),
          remove(shortcutKey(tenantId, reply.shortcut), 'id = :id', claimedBy(reply.id)),
        ],
      }),
    );
  } catch (error) {
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new SavedReplyChanged();
    throw error;
  }
}

/** A page of the tenant's saved replies A to Z by shortcut, those starting with `prefix` if given: one Query. */
export async function listSavedReplies(
  tenantId: string,
  request: { limit: number; cursor?: string; shortcut?: string },
): Promise<{ items: SavedReply[]; hasMore: boolean; nextCursor: string | null }> {
  const prefix = request.shortcut ?? '';
  const page = await queryPage(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': shortcutKey(tenantId, prefix).sk },
      ScanIndexForward: true,
    },
    request,
    { owner: tenantId, list: `saved-replies:${prefix}` },
    ['pk', 'sk'],
  );
  return { ...page, items: page.items.map(savedReplyFromItem) };
}
