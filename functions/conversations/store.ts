// Public: other features read conversations and add their writes to a conversation's transaction.
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  COPY_VERSION,
  copyIsCurrent,
  copyVersionAttributes,
  customerIdentityKey,
  customerOfIdentity,
  storedCopy,
  whatsAppIdentityKey,
} from '../customers/store';
import type { Customer, CustomerRef } from '../customers/customer';
import {
  conditionalWrite,
  db,
  eachInParallel,
  isConditionFailure,
  getMany,
  refusedItem,
  queryAll,
  retryConflicts,
  transactionConditionFailed,
  transactionConflicted,
  type TransactItem,
} from '../platform/db';
import { tableName } from '../platform/config';
import { DomainError } from '../platform/domain-error';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { tenantPk } from '../platform/keys';
import { decodeCursor, encodeCursor, queryPage, type CursorBinding } from '../platform/pagination';
import { inOrder } from '../platform/fields';
import { activeUserCheck } from '../users/store';
import {
  CONVERSATION_FIELDS,
  serviceWindowEnd,
  MESSAGE_FIELDS,
  type ChannelKind,
  type Conversation,
  type LastMessage,
  type ConversationStatus,
  type Message,
  UNASSIGNED,
} from './conversation';

/**
 * How the conversation feature keys its items; its stores are this file (conversations, tags, pointers),
 * message-store.ts, send-store.ts, note-store.ts and analysis-store.ts.
 *   pk TENANT#<t>  sk CONV#<id>#~              the conversation; it sorts after its own messages, so one
 *   pk TENANT#<t>  sk CONV#<id>#MSG#<ulid>     descending Query returns it with the newest messages
 *   pk TENANT#<t>  sk CONVTAG#<id>#<tag>       tag membership: a snapshot, indexed like the conversation
 *   pk TENANT#<t>  sk CUSCONV#<channel>#<account>#<handle>  the customer's current unresolved conversation there,
 *                                              keyed by a handle (pointerHandle) so it is read with the customer's
 *                                              identity: the phone, else `wa:<bsuid>`. The conversation item keeps
 *                                              its handle (`pointer_handle`; before it, the copy's phone), so it
 *                                              stays put when the customer later gains a phone or a BSUID.
 *   pk TENANT#<t>  sk PMSG#<channel>#<id>      provider message id → message (receipts, inbound dedupe)
 *   pk TENANT#<t>  sk CONVNOTE#<id>#<ulid>     a team note: outside the conversation's CONV#<id># range,
 *                                              so reading a conversation and its messages never meets one
 * The conversation (and each tag snapshot) keeps its API fields in one `conversation` map, the only
 * attribute the list indexes project. Lists (catalog/resources.ts), c_act = `<last_activity_at>#<id>`:
 *   convAll           c_all  <t>                     | tag items <t>#tag#<tag>
 *   convStatus        c_st   <t>#<status>            | tag items <t>#<status>#tag#<tag>
 *   convCustomer      c_cus  <t>#<cus id>, sorted by the stable base sk: a message rewrites the entry in
 *                     place instead of moving it; a customer's few conversations are ordered on read.
 *   convAssignee      c_asg  <t>#<usr id>, only while assigned and not resolved (a user's open work),
 *                     sorted by activity; a status is a filter on it (the user's list has no upper bound).
 * A channel has no index (each would move with every message): it is a filter on whichever list the
 * other filters pick, like `assignee_id=none`.
 * A snoozed conversation is also in the due index (platform/due-index, gsi5): SNOOZED#<shard>,
 * sk `<snoozed_until>#<t>#<id>`, for the worker that wakes it; no other conversation carries those keys.
 * A queued outbound message is in it too while queued: MSGDUE#<shard>, sk the time from which the
 * outbound sweeper takes it over (its hand-off lost, or its sender's lease over with no outcome).
 */
export const conversationKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `CONV#${id}#~` });
export const messageKey = (tenantId: string, conversationId: string, id: string) => ({
  pk: tenantPk(tenantId),
  sk: `CONV#${conversationId}#MSG#${id}`,
});
const tagKey = (tenantId: string, id: string, tag: string) => ({ pk: tenantPk(tenantId), sk: `CONVTAG#${id}#${tag}` });
const activeKey = (tenantId: string, channel: ChannelKind, account: string | null, handle: string) => ({
  pk: tenantPk(tenantId),
  sk: `CUSCONV#${channel}#${account ?? '-'}#${handle}`,
});

/** The handle of a customer's identity that an active-conversation pointer is keyed by. */
const phoneHandle = (phone: string) => phone;
export const userIdHandle = (userId: string) => `wa:${userId}`;

/**
 * Every handle a customer's active conversation may be found under: the phone's and the BSUID's (one
 * unresolved conversation per customer holds them all), or, for a customer with neither, its id.
 */
type Identified = { id: string; phone: string | null; whatsapp_user_id?: string | null };
export function customerHandles(c: Identified): string[] {
  const handles = [
    ...(c.phone ? [phoneHandle(c.phone)] : []),
    ...(c.whatsapp_user_id ? [userIdHandle(c.whatsapp_user_id)] : []),
  ];
  return handles.length ? handles : [`cus:${c.id}`];
}

/** The handle a new conversation's pointer takes: the customer's first (the phone when known). */
export const pointerHandle = (c: Identified) => customerHandles(c)[0] as string;

/**
 * The handle each conversation read from the table was stored with, so saving it keeps its pointer where
 * it is. Kept beside the object rather than in it: the conversation's fields are its API fields.
 */
const storedHandles = new WeakMap<Conversation, string>();
/** A conversation's handle: as stored, or for one stored before handles, its copy's phone then. */
const handleOf = (c: Conversation) => storedHandles.get(c) ?? c.customer.phone ?? pointerHandle(c.customer);

const activityKey = (c: Pick<Conversation, 'last_activity_at' | 'id'>) => `${c.last_activity_at}#${c.id}`;

function conversationIndexes(c: Conversation) {
  const tenantId = c.tenant_id;
  return {
    c_all: tenantId,
    c_st: `${tenantId}#${c.status}`,
    c_cus: `${tenantId}#${c.customer.id}`,
    ...(c.assignee_id && c.status !== 'resolved' ? { c_asg: `${tenantId}#${c.assignee_id}` } : {}),
    c_act: activityKey(c),
  };
}

const tagIndexes = (c: Conversation, tag: string) => ({
  c_all: `${c.tenant_id}#tag#${tag}`,
  c_st: `${c.tenant_id}#${c.status}#tag#${tag}`,
  c_act: activityKey(c),
});

const SNOOZED_KIND = 'SNOOZED';

/** While snoozed, the conversation is due to wake up at `snoozed_until`. */
const snoozeIndex = (c: Conversation) =>
  c.status === 'snoozed' && c.snoozed_until
    ? dueIndexKeys(SNOOZED_KIND, c.id, `${c.snoozed_until}#${c.tenant_id}#${c.id}`)
    : {};

/**
 * A conversation's whole item, as saveConversation writes it: key, list index keys, the due index while
 * snoozed, and the `conversation` map.
 */
export const conversationItem = (c: Conversation, handle?: string) => ({
  ...conversationKey(c.tenant_id, c.id),
  ...conversationIndexes(c),
  ...snoozeIndex(c),
  ...(handle ? { pointer_handle: handle } : {}),
  ...copyVersionAttributes(c.customer),
  conversation: c,
});

/** Snoozed conversations whose time came before `cutoff`, across tenants (at most `limitPerShard` per shard). */
export async function dueSnoozes(cutoff: Date, limitPerShard: number): Promise<{ tenantId: string; id: string }[]> {
  const items = await dueItems(SNOOZED_KIND, cutoff, limitPerShard);
  return items.map((item) => {
    const c = item.conversation as Conversation;
    return { tenantId: c.tenant_id, id: c.id };
  });
}

/** A tag snapshot's whole item, as saveConversation writes it. */
export const tagItem = (c: Conversation, tag: string) => ({
  ...tagKey(c.tenant_id, c.id, tag),
  ...tagIndexes(c, tag),
  conversation: c,
});

/**
 * A stored conversation or tag item rewritten in today's shape (the item conversationItem or tagItem
 * makes), whatever shape it was stored in: deployments before the five conversation indexes kept a
 * conversation's API fields as top-level attributes and keyed both kinds with gsi1pk…gsi6sk, which
 * today's item does not carry. Undefined for any other item (a message, a pointer), or one whose key
 * does not match its conversation.
 */
export function currentConversationItem(item: Record<string, unknown>): Record<string, unknown> | undefined {
  const sk = String(item.sk);
  const isConversation = sk.startsWith('CONV#') && sk.endsWith('#~');
  if (!isConversation && !sk.startsWith('CONVTAG#')) return undefined;
  const c = conversationFromItem(item);
  if (!c.id || !c.tenant_id) return undefined;
  const tagPrefix = tagKey(c.tenant_id, c.id, '').sk;
  const current = isConversation
    ? conversationItem(c, typeof item.pointer_handle === 'string' ? item.pointer_handle : undefined)
    : sk.startsWith(tagPrefix) && sk.length > tagPrefix.length
      ? tagItem(c, sk.slice(tagPrefix.length))
      : undefined;
  return current && current.pk === item.pk && current.sk === sk ? current : undefined;
}

export function conversationFromItem(item: Record<string, unknown>): Conversation {
  const c = inOrder<Conversation>(
    (item.conversation as Record<string, unknown> | undefined) ?? item,
    CONVERSATION_FIELDS,
  );
  const conversation = {
    ...c,
    customer: storedCopy(c.customer, item),
    // Derived, so conversations stored before the field have it too.
    window_expires_at: serviceWindowEnd(c),
    // A conversation stored before counts were kept: nothing known to be waiting.
    unanswered_count: c.unanswered_count ?? 0,
  };
  if (typeof item.pointer_handle === 'string') storedHandles.set(conversation, item.pointer_handle);
  return conversation;
}
export const messageFromItem = (item: Record<string, unknown>): Message => inOrder<Message>(item, MESSAGE_FIELDS);

/** The user a save assigns the conversation to was disabled since they were read. */
export class AssigneeInactive extends Error {
  constructor() {
    super('assignee no longer active');
    this.name = 'AssigneeInactive';
  }
}

export class ConversationChanged extends Error {
  constructor() {
    super('conversation changed concurrently');
    this.name = 'ConversationChanged';
  }
}

/** The customer already has another unresolved conversation on this channel account. */
export class ActiveConversationExists extends Error {
  constructor(readonly conversationId: string) {
    super('another conversation is active');
    this.name = 'ActiveConversationExists';
  }
}

/**
 * Writes a new version of a conversation with the other items of the same change (messages, events),
 * in one transaction: the conversation (conditional on the version that was read), its tag snapshots,
 * and the customer's active-conversation pointer. Throws ConversationChanged if someone else won.
 * `knownPointer`: the customer's active conversation as the caller just read it under all its handles
 * (null: none), so it is not read again.
 */
export async function saveConversation(
  before: Conversation | undefined,
  after: Conversation,
  extra: TransactItem[] = [],
  knownPointer?: string | null,
): Promise<void> {
  const table = tableName('main');
  const tenantId = after.tenant_id;
  const handle = before ? handleOf(before) : pointerHandle(after.customer);
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: conversationItem(after, handle),
        ConditionExpression: before ? '#c.#version = :version' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: before ? { '#c': 'conversation', '#version': 'version' } : undefined,
        ExpressionAttributeValues: before ? { ':version': before.version } : undefined,
      },
    },
  ];
  for (const tag of after.tags) {
    items.push({ Put: { TableName: table, Item: tagItem(after, tag) } });
  }
  for (const tag of before?.tags ?? []) {
    if (!after.tags.includes(tag)) items.push({ Delete: { TableName: table, Key: tagKey(tenantId, after.id, tag) } });
  }
  // The active-conversation pointer: taken only if free under every handle of the customer (one unresolved
  // conversation per customer and channel account), released only if it is ours. A lost race fails the
  // transaction and is retried.
  const wasActive = before !== undefined && before.status !== 'resolved';
  const isActive = after.status !== 'resolved';
  const pointer = activeKey(tenantId, after.channel, after.channel_account_id, handle);
  if (isActive !== wasActive) {
    const others = isActive
      ? customerHandles(after.customer)
          .filter((h) => h !== handle)
          .map((h) => activeKey(tenantId, after.channel, after.channel_account_id, h))
      : [];
    const current =
      knownPointer !== undefined
        ? (knownPointer ?? undefined)
        : ((await getMany(table, [pointer, ...others])).find((p) => p?.conversation_id)?.conversation_id as
            string | undefined);
    if (isActive) {
      if (current && current !== after.id) throw new ActiveConversationExists(current);
      items.push({
        Put: {
          TableName: table,
          Item: { ...pointer, conversation_id: after.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      for (const Key of others)
        items.push({ ConditionCheck: { TableName: table, Key, ConditionExpression: 'attribute_not_exists(pk)' } });
    } else if (current === after.id) {
      items.push(pointerRelease(tenantId, after.channel, after.channel_account_id, handle, after.id));
    }
  }
  // A new assignment (or one kept by a reopening) commits only while the user is active: a user disabled
  // meanwhile has had their conversations released, and would keep this one for ever.
  const assignee = after.assignee_id;
  const assigns =
    assignee !== null &&
    (assignee !== before?.assignee_id || (before.status === 'resolved' && after.status !== 'resolved'));
  const userCheck = items.length;
  if (assigns) items.push(activeUserCheck(tenantId, assignee));
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    storedHandles.set(after, handle);
  } catch (error) {
    if (transactionConditionFailed(error, [0]) || transactionConflicted(error)) throw new ConversationChanged();
    if (assigns && transactionConditionFailed(error, [userCheck])) throw new AssigneeInactive();
    if (transactionConditionFailed(error) && items.some((i) => 'Put' in i && i.Put?.Item?.sk === pointer.sk))
      throw new ConversationChanged();
    throw error;
  }
}

/**
 * Moves a conversation's activity for an outbound message: one UpdateItem, conditional on the conversation
 * existing, on no newer activity, and for WhatsApp on the customer's last message being after
 * `windowStart`. Returns the conversation as updated, or as it was when the condition failed (undefined:
 * there is none), so the caller can tell which rule stopped it.
 */
export async function touchForOutbound(
  tenantId: string,
  id: string,
  at: string,
  /** Since when the customer must have written (WhatsApp's window); null for a template, which needs none. */
  windowStart: string | null,
  lastMessage: LastMessage,
): Promise<{ ok: true; conversation: Conversation } | { ok: false; current: Conversation | undefined }> {
  try {
    // A burst of inbound messages writes the conversation in transactions: a conflict with one is over in
    // milliseconds, so it is retried rather than answered 503.
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(tenantId, id),
          // A reply answers what the customer wrote: nothing is left waiting.
          UpdateExpression:
            'SET #c.#lm = :at, #c.#la = :at, #c.#ua = :at, #c.#v = #c.#v + :one, c_act = :act, #c.#msg = :msg, #c.#un = :zero',
          ConditionExpression:
            windowStart === null
              ? 'attribute_exists(pk) AND #c.#la <= :at'
              : // insideServiceWindow: the customer wrote since the window's start, or a sandbox customer never did.
                'attribute_exists(pk) AND #c.#la <= :at AND (#c.#li > :window OR (#c.#ch = :sandbox AND (attribute_not_exists(#c.#li) OR attribute_type(#c.#li, :null))))',
          ExpressionAttributeNames: {
            '#c': 'conversation',
            '#lm': 'last_message_at',
            '#la': 'last_activity_at',
            '#ua': 'updated_at',
            '#v': 'version',
            '#msg': 'last_message',
            '#un': 'unanswered_count',
            ...(windowStart === null ? {} : { '#ch': 'channel', '#li': 'last_inbound_at' }),
          },
          ExpressionAttributeValues: {
            ':at': at,
            ':one': 1,
            ':zero': 0,
            ':msg': lastMessage,
            ':act': activityKey({ last_activity_at: at, id }),
            ...(windowStart === null ? {} : { ':sandbox': 'sandbox', ':null': 'NULL', ':window': windowStart }),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return { ok: true, conversation: conversationFromItem(out.Attributes ?? {}) };
  } catch (error) {
    const old = refusedItem(error);
    return { ok: false, current: old ? conversationFromItem(old) : undefined };
  }
}

/** Counts a change without moving the activity (a newer message got there first). */
export async function bumpVersion(tenantId: string, id: string): Promise<Conversation | undefined> {
  try {
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(tenantId, id),
          UpdateExpression: 'SET #c.#v = #c.#v + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#c': 'conversation', '#v': 'version' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return conversationFromItem(out.Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Rewrites the conversation's tag snapshots with it, each only if it still exists and holds an older version. */
export async function refreshTagSnapshots(conversation: Conversation): Promise<void> {
  await Promise.all(
    conversation.tags.map((tag) =>
      conditionalWrite(() =>
        retryConflicts(() =>
          db().send(
            new UpdateCommand({
              TableName: tableName('main'),
              Key: tagKey(conversation.tenant_id, conversation.id, tag),
              UpdateExpression: 'SET #c = :c, c_act = :act',
              ConditionExpression: 'attribute_exists(pk) AND #c.#v < :v',
              ExpressionAttributeNames: { '#c': 'conversation', '#v': 'version' },
              ExpressionAttributeValues: {
                ':c': conversation,
                ':act': activityKey(conversation),
                ':v': conversation.version,
              },
            }),
          ),
        ),
      ),
    ),
  );
}

/**
 * Rewrites the copy of a customer that each of their conversations carries, where it is older than
 * `customer` (taken at its customer version): one Query of the customer's conversations, then a
 * conditional update each, which writes only over an older copy (so a slower refresh of an earlier change
 * never undoes a later one), moves the conversation's version (its ETag changes, and a save that read the
 * old copy fails its condition and reads again) but not its `updated_at`, as the conversation itself did
 * not change. Then every conversation's tag snapshots are brought up to it, also those a failed earlier
 * refresh left behind. The index may lag: a copy it shows as current is (versions only grow), one it
 * shows as older is checked by the write's condition, and one it does not show yet is the caller's to
 * pass over again once it settles.
 */
export async function refreshCustomerCopies(tenantId: string, customer: CustomerRef, version: number): Promise<void> {
  const items = await queryAll({
    TableName: tableName('main'),
    IndexName: 'convCustomer',
    KeyConditionExpression: 'c_cus = :pk',
    ExpressionAttributeValues: { ':pk': `${tenantId}#${customer.id}` },
  });
  await eachInParallel(items.map(conversationFromItem), 5, async (listed) => {
    const current = copyIsCurrent(listed.customer, version)
      ? listed
      : await writeCustomerCopy(tenantId, listed.id, customer, version);
    if (current) await refreshTagSnapshots(current);
  });
}

/**
 * The conversation with `customer` as its copy: written (with a new version) if its copy was older, else as
 * it is when its copy is already this one or newer (also when this write committed and its response was
 * lost); undefined if it is gone.
 */
async function writeCustomerCopy(
  tenantId: string,
  id: string,
  customer: CustomerRef,
  version: number,
): Promise<Conversation | undefined> {
  try {
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(tenantId, id),
          UpdateExpression: 'SET #c.#cus = :cus, #cv = :cv, #c.#v = #c.#v + :one',
          ConditionExpression:
            'attribute_exists(pk) AND #c.#cus.#id = :id AND (attribute_not_exists(#cv) OR #cv < :cv)',
          ExpressionAttributeNames: {
            '#c': 'conversation',
            '#cus': 'customer',
            '#id': 'id',
            '#v': 'version',
            '#cv': COPY_VERSION,
          },
          ExpressionAttributeValues: { ':cus': customer, ':id': customer.id, ':cv': version, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return conversationFromItem(out.Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const stored = await getConversation(tenantId, id);
    return stored && stored.customer.id === customer.id && copyIsCurrent(stored.customer, version) ? stored : undefined;
  }
}

export async function getConversation(tenantId: string, id: string): Promise<Conversation | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: conversationKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? conversationFromItem(out.Item) : undefined;
}

/** The conversation and its newest messages in one Query (the conversation item sorts first). */
export async function getConversationWithMessages(tenantId: string, id: string, messageCount = 20) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': `CONV#${id}#` },
      ScanIndexForward: false,
      Limit: messageCount + 2,
      ConsistentRead: true,
    }),
  );
  const [first, ...rest] = out.Items ?? [];
  if (!first || !String(first.sk).endsWith('#~')) return undefined;
  return {
    conversation: conversationFromItem(first),
    messages: rest.slice(0, messageCount).map(messageFromItem),
    hasMoreMessages: rest.length > messageCount,
  };
}

/**
 * Who writes in on a channel account, in one read: the customers known by the message's phone and by its
 * BSUID (undefined where none is), and the active-conversation pointers under those two handles (null:
 * read, none there). For the ordinary message with a phone, that is the customer and their conversation.
 */
export async function findInboundParty(
  tenantId: string,
  channel: ChannelKind,
  account: string | null,
  seen: { phone: string | null; userId: string | null },
): Promise<{
  byPhone: Customer | undefined;
  byUserId: Customer | undefined;
  pointers: Map<string, string | null>;
}> {
  const handles = [
    ...(seen.phone ? [phoneHandle(seen.phone)] : []),
    ...(seen.userId ? [userIdHandle(seen.userId)] : []),
  ];
  const items = await getMany(tableName('main'), [
    ...(seen.phone ? [customerIdentityKey(tenantId, seen.phone)] : []),
    ...(seen.userId ? [whatsAppIdentityKey(tenantId, seen.userId)] : []),
    ...handles.map((h) => activeKey(tenantId, channel, account, h)),
  ]);
  const phoneIdentity = seen.phone ? items.shift() : undefined;
  const userIdentity = seen.userId ? items.shift() : undefined;
  const pointers = items;
  const [byPhone, byUserId] = await Promise.all([
    seen.phone ? customerOfIdentity(tenantId, phoneIdentity) : undefined,
    seen.userId ? customerOfIdentity(tenantId, userIdentity) : undefined,
  ]);
  return {
    byPhone,
    byUserId,
    pointers: new Map(handles.map((h, i) => [h, (pointers[i]?.conversation_id as string | undefined) ?? null])),
  };
}

/** The active-conversation pointers under these handles (null: none there), in one read. */
export async function activePointers(
  tenantId: string,
  channel: ChannelKind,
  account: string | null,
  handles: string[],
): Promise<Map<string, string | null>> {
  const items = handles.length
    ? await getMany(
        tableName('main'),
        handles.map((h) => activeKey(tenantId, channel, account, h)),
      )
    : [];
  return new Map(handles.map((h, i) => [h, (items[i]?.conversation_id as string | undefined) ?? null]));
}

/** The identity item that says whose a handle is (none for `cus:<id>`, which only its customer has). */
function identityKeyOfHandle(tenantId: string, handle: string) {
  if (handle.startsWith('wa:')) return whatsAppIdentityKey(tenantId, handle.slice('wa:'.length));
  return handle.startsWith('cus:') ? undefined : customerIdentityKey(tenantId, handle);
}

/**
 * Frees the pointer under a handle that another customer's conversation holds, one the handle's owner took
 * from them: only while the pointer still names that conversation and the handle's identity still names
 * `ownerId`, in one transaction. A read that saw the pointer but not yet the identity (a customer created
 * at the same moment, whose conversation this is) frees nothing. Returns whether it freed the pointer.
 */
export async function releaseForeignPointer(
  tenantId: string,
  channel: ChannelKind,
  account: string | null,
  handle: string,
  conversationId: string,
  ownerId: string,
): Promise<boolean> {
  const identity = identityKeyOfHandle(tenantId, handle);
  if (!identity) return false;
  try {
    return await conditionalWrite(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            pointerRelease(tenantId, channel, account, handle, conversationId),
            {
              ConditionCheck: {
                TableName: tableName('main'),
                Key: identity,
                ConditionExpression: 'customer_id = :owner',
                ExpressionAttributeValues: { ':owner': ownerId },
              },
            },
          ],
        }),
      ),
    );
  } catch (error) {
    // Someone is writing these items right now: the caller reads them again.
    if (transactionConflicted(error)) return false;
    throw error;
  }
}

/** Releases the pointer under a handle if it still names this conversation: for the caller's transaction. */
export function pointerRelease(
  tenantId: string,
  channel: ChannelKind,
  account: string | null,
  handle: string,
  conversationId: string,
): TransactItem {
  return {
    Delete: {
      TableName: tableName('main'),
      Key: activeKey(tenantId, channel, account, handle),
      ConditionExpression: 'conversation_id = :me',
      ExpressionAttributeValues: { ':me': conversationId },
    },
  };
}

export interface ConversationFilters {
  status?: ConversationStatus;
  tag?: string;
  channel?: ChannelKind;
  customer_id?: string;
  /** A user's id, or `none` for conversations nobody is assigned to. */
  assignee_id?: string;
}

/**
 * Which index answers a filter combination in one Query; undefined if none does. The channel picks none:
 * it filters the list the others pick (listFilter).
 */
function indexFor(tenantId: string, f: ConversationFilters): { index: string; key: string; value: string } | undefined {
  const given = (['tag', 'customer_id', 'assignee_id'] as const).filter((k) => f[k] !== undefined);
  if (given.length > 1) return undefined;
  // A user's list holds only the conversations they are working on.
  if (f.assignee_id !== undefined && f.status === 'resolved') return undefined;
  const s = f.status;
  if (f.tag !== undefined)
    return s
      ? { index: 'convStatus', key: 'c_st', value: `${tenantId}#${s}#tag#${f.tag}` }
      : { index: 'convAll', key: 'c_all', value: `${tenantId}#tag#${f.tag}` };
  if (f.customer_id !== undefined)
    return { index: 'convCustomer', key: 'c_cus', value: `${tenantId}#${f.customer_id}` };
  if (f.assignee_id !== undefined)
    return { index: 'convAssignee', key: 'c_asg', value: `${tenantId}#${f.assignee_id}` };
  return s
    ? { index: 'convStatus', key: 'c_st', value: `${tenantId}#${s}` }
    : { index: 'convAll', key: 'c_all', value: tenantId };
}

/**
 * What a list's Query filters out after its key condition: the status on a user's list, the channel and
 * the assignee on any.
 */
function listFilter(index: string, f: ConversationFilters, unassigned: boolean) {
  const conditions: string[] = [];
  const names: Record<string, string> = { '#c': 'conversation' };
  const values: Record<string, unknown> = {};
  // A user's list has every status but resolved in one partition.
  if (index === 'convAssignee' && f.status) {
    conditions.push('#c.#status = :status');
    names['#status'] = 'status';
    values[':status'] = f.status;
  }
  if (f.channel !== undefined) {
    conditions.push('#c.#channel = :channel');
    names['#channel'] = 'channel';
    values[':channel'] = f.channel;
  }
  if (unassigned) {
    conditions.push('(attribute_not_exists(#c.#assignee) OR attribute_type(#c.#assignee, :null))');
    names['#assignee'] = 'assignee_id';
    values[':null'] = 'NULL';
  }
  return conditions.length ? { expression: conditions.join(' AND '), names, values } : undefined;
}

export async function listConversations(
  tenantId: string,
  filters: ConversationFilters,
  request: { limit: number; cursor?: string },
) {
  // No index holds only unassigned conversations, nor one channel's: each is a filter on whichever list
  // answers the rest.
  const unassigned = filters.assignee_id === UNASSIGNED;
  const target = indexFor(tenantId, unassigned ? { ...filters, assignee_id: undefined } : filters);
  if (!target) {
    throw DomainError.malformed(
      'unsupported_filter_combination',
      'Combine `status` with at most one of `tag`, `customer_id` and `assignee_id` ' +
        '(`assignee_id` lists unresolved conversations: not with `status=resolved`; `channel` and ' +
        '`assignee_id=none` combine with any of them).',
    );
  }
  const list =
    `conversations:${target.index}:${target.value}:${filters.status ?? ''}` +
    `${filters.channel ? `:channel=${filters.channel}` : ''}${unassigned ? ':unassigned' : ''}`;
  const binding = { owner: tenantId, list };
  const query = {
    TableName: tableName('main'),
    IndexName: target.index,
    KeyConditionExpression: `${target.key} = :pk`,
    ExpressionAttributeValues: { ':pk': target.value },
  };
  if (target.index === 'convCustomer') {
    const keep = (c: Conversation) =>
      (!filters.status || c.status === filters.status) &&
      (!filters.channel || c.channel === filters.channel) &&
      (!unassigned || !c.assignee_id);
    return wholePartitionPage(query, keep, request, binding);
  }
  const filter = listFilter(target.index, filters, unassigned);
  const filtered = filter && {
    FilterExpression: filter.expression,
    ExpressionAttributeNames: filter.names,
    ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ...filter.values },
  };
  const page = await queryPage({ ...query, ...filtered }, request, binding, ['pk', 'sk', target.key, 'c_act']);
  return { ...page, items: page.items.map(conversationFromItem) };
}

/** The ids of a user's unresolved conversations: their whole entry in convAssignee. */
export async function assignedConversationIds(tenantId: string, userId: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName('main'),
    IndexName: 'convAssignee',
    KeyConditionExpression: 'c_asg = :pk',
    ExpressionAttributeValues: { ':pk': `${tenantId}#${userId}` },
  });
  return items.map((item) => conversationFromItem(item).id);
}

/**
 * A customer's conversations: the whole partition in one Query (a customer has a handful, and the entries
 * hold only the `conversation` map), ordered by last activity and filtered here. The cursor is
 * the activity key of the last conversation returned.
 */
async function wholePartitionPage(
  query: QueryCommandInput,
  keep: (c: Conversation) => boolean,
  request: { limit: number; cursor?: string },
  binding: CursorBinding,
) {
  const after = request.cursor ? String((await decodeCursor(binding, request.cursor)).after) : undefined;
  const items = await queryAll(query);
  const ordered = items
    .map(conversationFromItem)
    .filter((c) => keep(c) && (!after || activityKey(c) < after))
    .sort((x, y) => (activityKey(x) < activityKey(y) ? 1 : -1));
  const page = ordered.slice(0, request.limit);
  const hasMore = ordered.length > request.limit;
  const last = page[page.length - 1];
  return {
    items: page,
    hasMore,
    nextCursor: hasMore && last ? await encodeCursor(binding, { after: activityKey(last) }) : null,
  };
}
