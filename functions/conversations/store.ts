import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  GetCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { customerIdentityKey, customerOfIdentity, whatsAppIdentityKey } from '../customers/store';
import type { Customer, CustomerRef } from '../customers/customer';
import type { Sender } from '../auth/principal';
import type { EventEnvelope } from '../events/catalog';
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
import { UpdateBuilder } from '../platform/expressions';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { tenantPk } from '../platform/keys';
import { decodeCursor, encodeCursor, queryPage, tenantItemsPage, type CursorBinding } from '../platform/pagination';
import { CUSTOMER_REF_FIELDS, inOrder } from '../platform/fields';
import { activeUserCheck } from '../users/store';
import {
  CONVERSATION_FIELDS,
  MESSAGE_FIELDS,
  NOTE_FIELDS,
  type ChannelKind,
  type Conversation,
  type LastMessage,
  type ConversationStatus,
  type Message,
  type MessageAnalysis,
  type MessageStatus,
  type Note,
  OUTBOUND_TAKEOVER_MS,
  UNASSIGNED,
} from './conversation';

/**
 * The only code that knows how conversations and messages are keyed.
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
export const conversationKey = (t: string, id: string) => ({ pk: tenantPk(t), sk: `CONV#${id}#~` });
export const messageKey = (t: string, conversationId: string, id: string) => ({
  pk: tenantPk(t),
  sk: `CONV#${conversationId}#MSG#${id}`,
});
const tagKey = (t: string, id: string, tag: string) => ({ pk: tenantPk(t), sk: `CONVTAG#${id}#${tag}` });
const activeKey = (t: string, channel: ChannelKind, account: string | null, handle: string) => ({
  pk: tenantPk(t),
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
const providerKey = (t: string, channel: ChannelKind, providerId: string) => ({
  pk: tenantPk(t),
  sk: `PMSG#${channel}#${providerId}`,
});

const activityKey = (c: Pick<Conversation, 'last_activity_at' | 'id'>) => `${c.last_activity_at}#${c.id}`;

function conversationIndexes(c: Conversation) {
  const t = c.tenant_id;
  return {
    c_all: t,
    c_st: `${t}#${c.status}`,
    c_cus: `${t}#${c.customer.id}`,
    ...(c.assignee_id && c.status !== 'resolved' ? { c_asg: `${t}#${c.assignee_id}` } : {}),
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
    customer: inOrder<CustomerRef>(c.customer, CUSTOMER_REF_FIELDS),
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
  const t = after.tenant_id;
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
    if (!after.tags.includes(tag)) items.push({ Delete: { TableName: table, Key: tagKey(t, after.id, tag) } });
  }
  // The active-conversation pointer: taken only if free under every handle of the customer (one unresolved
  // conversation per customer and channel account), released only if it is ours. A lost race fails the
  // transaction and is retried.
  const wasActive = before !== undefined && before.status !== 'resolved';
  const isActive = after.status !== 'resolved';
  const pointer = activeKey(t, after.channel, after.channel_account_id, handle);
  if (isActive !== wasActive) {
    const others = isActive
      ? customerHandles(after.customer)
          .filter((h) => h !== handle)
          .map((h) => activeKey(t, after.channel, after.channel_account_id, h))
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
      items.push(pointerRelease(t, after.channel, after.channel_account_id, handle, after.id));
    }
  }
  // A new assignment (or one kept by a reopening) commits only while the user is active: a user disabled
  // meanwhile has had their conversations released, and would keep this one for ever.
  const assignee = after.assignee_id;
  const assigns =
    assignee !== null &&
    (assignee !== before?.assignee_id || (before.status === 'resolved' && after.status !== 'resolved'));
  const userCheck = items.length;
  if (assigns) items.push(activeUserCheck(t, assignee));
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
  t: string,
  id: string,
  at: string,
  windowStart: string,
  lastMessage: LastMessage,
): Promise<{ ok: true; conversation: Conversation } | { ok: false; current: Conversation | undefined }> {
  try {
    // A burst of inbound messages writes the conversation in transactions: a conflict with one is over in
    // milliseconds, so it is retried rather than answered 503.
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(t, id),
          // A reply answers what the customer wrote: nothing is left waiting.
          UpdateExpression:
            'SET #c.#lm = :at, #c.#la = :at, #c.#ua = :at, #c.#v = #c.#v + :one, c_act = :act, #c.#msg = :msg, #c.#un = :zero',
          ConditionExpression: 'attribute_exists(pk) AND #c.#la <= :at AND (#c.#ch <> :wa OR #c.#li > :window)',
          ExpressionAttributeNames: {
            '#c': 'conversation',
            '#lm': 'last_message_at',
            '#la': 'last_activity_at',
            '#ua': 'updated_at',
            '#v': 'version',
            '#ch': 'channel',
            '#li': 'last_inbound_at',
            '#msg': 'last_message',
            '#un': 'unanswered_count',
          },
          ExpressionAttributeValues: {
            ':at': at,
            ':one': 1,
            ':zero': 0,
            ':msg': lastMessage,
            ':act': activityKey({ last_activity_at: at, id }),
            ':wa': 'whatsapp',
            ':window': windowStart,
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
export async function bumpVersion(t: string, id: string): Promise<Conversation | undefined> {
  try {
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(t, id),
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

/**
 * Puts an outbound message (its own outbox record: the dispatcher's stream filter picks it up) and
 * refreshes the conversation's tag snapshots beside it, each only if it still exists and is older.
 */
export async function putOutboundMessage(message: Message, conversation: Conversation): Promise<void> {
  await Promise.all([db().send(new PutCommand(messagePut(message).Put)), refreshTagSnapshots(conversation)]);
}

/** Rewrites the conversation's tag snapshots with it, each only if it still exists and holds an older version. */
async function refreshTagSnapshots(conversation: Conversation): Promise<void> {
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
 * Rewrites the copy of a customer that each of their conversations carries, where it differs: one Query
 * of the customer's conversations, then a conditional update each, which moves the conversation's version
 * (its ETag changes, and a save that read the old copy fails its condition and reads again) but not its
 * `updated_at`, as the conversation itself did not change. Then every conversation's tag snapshots are
 * brought up to it, also those a failed earlier refresh left behind.
 */
export async function refreshCustomerCopies(t: string, customer: Conversation['customer']): Promise<void> {
  const items = await queryAll({
    TableName: tableName('main'),
    IndexName: 'convCustomer',
    KeyConditionExpression: 'c_cus = :pk',
    ExpressionAttributeValues: { ':pk': `${t}#${customer.id}` },
  });
  await eachInParallel(items.map(conversationFromItem), 5, async (listed) => {
    const current =
      JSON.stringify(listed.customer) === JSON.stringify(customer)
        ? listed
        : await writeCustomerCopy(t, listed.id, customer);
    if (current) await refreshTagSnapshots(current);
  });
}

/** The conversation with `customer` as its copy and a new version; undefined if it is gone. */
async function writeCustomerCopy(
  t: string,
  id: string,
  customer: Conversation['customer'],
): Promise<Conversation | undefined> {
  try {
    const out = await retryConflicts(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: conversationKey(t, id),
          UpdateExpression: 'SET #c.#cus = :cus, #c.#v = #c.#v + :one',
          ConditionExpression: 'attribute_exists(pk) AND #c.#cus.#id = :id',
          ExpressionAttributeNames: { '#c': 'conversation', '#cus': 'customer', '#id': 'id', '#v': 'version' },
          ExpressionAttributeValues: { ':cus': customer, ':id': customer.id, ':one': 1 },
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

export async function getConversation(t: string, id: string): Promise<Conversation | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: conversationKey(t, id), ConsistentRead: true }),
  );
  return out.Item ? conversationFromItem(out.Item) : undefined;
}

/** The conversation and its newest messages in one Query (the conversation item sorts first). */
export async function getConversationWithMessages(t: string, id: string, messageCount = 20) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(t), ':prefix': `CONV#${id}#` },
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
  t: string,
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
    ...(seen.phone ? [customerIdentityKey(t, seen.phone)] : []),
    ...(seen.userId ? [whatsAppIdentityKey(t, seen.userId)] : []),
    ...handles.map((h) => activeKey(t, channel, account, h)),
  ]);
  const phoneIdentity = seen.phone ? items.shift() : undefined;
  const userIdentity = seen.userId ? items.shift() : undefined;
  const pointers = items;
  const [byPhone, byUserId] = await Promise.all([
    seen.phone ? customerOfIdentity(t, phoneIdentity) : undefined,
    seen.userId ? customerOfIdentity(t, userIdentity) : undefined,
  ]);
  return {
    byPhone,
    byUserId,
    pointers: new Map(handles.map((h, i) => [h, (pointers[i]?.conversation_id as string | undefined) ?? null])),
  };
}

/** The active-conversation pointers under these handles (null: none there), in one read. */
export async function activePointers(
  t: string,
  channel: ChannelKind,
  account: string | null,
  handles: string[],
): Promise<Map<string, string | null>> {
  const items = handles.length
    ? await getMany(
        tableName('main'),
        handles.map((h) => activeKey(t, channel, account, h)),
      )
    : [];
  return new Map(handles.map((h, i) => [h, (items[i]?.conversation_id as string | undefined) ?? null]));
}

/** Releases the pointer under a handle if it still names this conversation (else nothing). */
export async function releasePointer(
  t: string,
  channel: ChannelKind,
  account: string | null,
  handle: string,
  conversationId: string,
): Promise<void> {
  const { Delete } = pointerRelease(t, channel, account, handle, conversationId);
  if (Delete) await conditionalWrite(() => db().send(new DeleteCommand(Delete)));
}

/** Releases the pointer under a handle if it still names this conversation: for the caller's transaction. */
export function pointerRelease(
  t: string,
  channel: ChannelKind,
  account: string | null,
  handle: string,
  conversationId: string,
): TransactItem {
  return {
    Delete: {
      TableName: tableName('main'),
      Key: activeKey(t, channel, account, handle),
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
function indexFor(t: string, f: ConversationFilters): { index: string; key: string; value: string } | undefined {
  const given = (['tag', 'customer_id', 'assignee_id'] as const).filter((k) => f[k] !== undefined);
  if (given.length > 1) return undefined;
  // A user's list holds only the conversations they are working on.
  if (f.assignee_id !== undefined && f.status === 'resolved') return undefined;
  const s = f.status;
  if (f.tag !== undefined)
    return s
      ? { index: 'convStatus', key: 'c_st', value: `${t}#${s}#tag#${f.tag}` }
      : { index: 'convAll', key: 'c_all', value: `${t}#tag#${f.tag}` };
  if (f.customer_id !== undefined) return { index: 'convCustomer', key: 'c_cus', value: `${t}#${f.customer_id}` };
  if (f.assignee_id !== undefined) return { index: 'convAssignee', key: 'c_asg', value: `${t}#${f.assignee_id}` };
  return s ? { index: 'convStatus', key: 'c_st', value: `${t}#${s}` } : { index: 'convAll', key: 'c_all', value: t };
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
  t: string,
  filters: ConversationFilters,
  request: { limit: number; cursor?: string },
) {
  // No index holds only unassigned conversations, nor one channel's: each is a filter on whichever list
  // answers the rest.
  const unassigned = filters.assignee_id === UNASSIGNED;
  const target = indexFor(t, unassigned ? { ...filters, assignee_id: undefined } : filters);
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
  const binding = { owner: t, list };
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
export async function assignedConversationIds(t: string, userId: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName('main'),
    IndexName: 'convAssignee',
    KeyConditionExpression: 'c_asg = :pk',
    ExpressionAttributeValues: { ':pk': `${t}#${userId}` },
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

const noteKey = (t: string, conversationId: string, id: string) => ({
  pk: tenantPk(t),
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
  t: string,
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
        Key: noteKey(t, conversationId, noteId),
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
  t: string,
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
        Key: noteKey(t, conversationId, noteId),
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
export async function listNotes(t: string, conversationId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(t, `CONVNOTE#${conversationId}#`, `notes:${conversationId}`, request);
  return { ...page, items: page.items.map(noteFromItem) };
}

export async function listMessages(t: string, conversationId: string, request: { limit: number; cursor?: string }) {
  const page = await tenantItemsPage(t, `CONV#${conversationId}#MSG#`, `messages:${conversationId}`, request);
  return { ...page, items: page.items.map(messageFromItem) };
}

/** Queued outbound messages, in the due index by the time the outbound sweeper may take them over. */
const OUTBOUND_DUE_KIND = 'MSGDUE';
const outboundDue = (id: string, takeoverAt: Date) => dueIndexKeys(OUTBOUND_DUE_KIND, id, takeoverAt.toISOString());

/**
 * A new message; queued outbound messages carry the outbox marker the dispatcher's filter picks up, and
 * enter the due index, so the outbound sweeper finds them should that hand-off be lost.
 */
export function messagePut(message: Message) {
  const queued = message.direction === 'outbound' && message.status === 'queued';
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        ...messageKey(message.tenant_id, message.conversation_id, message.id),
        ...(queued
          ? {
              outbox: 'channel_send',
              ...outboundDue(message.id, new Date(Date.parse(message.created_at) + OUTBOUND_TAKEOVER_MS)),
            }
          : {}),
        ...message,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export interface MessageRef {
  tenant_id: string;
  conversation_id: string;
  message_id: string;
}

/** Claims a provider message id; the condition fails the transaction for a duplicate delivery. */
export function providerIdClaim(channel: ChannelKind, providerId: string, ref: MessageRef) {
  return {
    Put: {
      TableName: tableName('main'),
      Item: { ...providerKey(ref.tenant_id, channel, providerId), ...ref },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Provider ids are looked up within one tenant only: a tenant can never touch another's messages. */
export async function findByProviderId(
  t: string,
  channel: ChannelKind,
  providerId: string,
): Promise<MessageRef | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: providerKey(t, channel, providerId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const item = out.Item as MessageRef;
  return { tenant_id: item.tenant_id, conversation_id: item.conversation_id, message_id: item.message_id };
}

export async function getMessage(ref: MessageRef): Promise<Message | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
      ConsistentRead: true,
    }),
  );
  return out.Item ? messageFromItem(out.Item) : undefined;
}

/**
 * Moves a message to `status` only from the statuses allowed before it, setting `fields` (which carry the
 * change's events: messageOutbox) in one conditional write, or in one transaction with `extra` items.
 * Returns false when the message's condition fails (an older receipt arriving late), so nothing moves
 * backwards. `expected` adds conditions (attribute = value; null: absent). A message that moves on from
 * `queued` leaves the due index and loses its send lease.
 */
export async function advanceMessage(
  ref: MessageRef,
  status: MessageStatus,
  allowedFrom: MessageStatus[],
  fields: Record<string, unknown>,
  extra: TransactItem[] = [],
  expected: Record<string, unknown> = {},
): Promise<boolean> {
  const expression = new UpdateBuilder().set('status', status);
  for (const [k, v] of Object.entries(fields)) expression.set(k, v);
  expression.remove('gsi5pk').remove('gsi5sk').remove(SEND_LEASE);
  expression.whenIn('status', allowedFrom);
  for (const [k, v] of Object.entries(expected))
    if (v === null) expression.when(`attribute_not_exists(${expression.name(k)})`);
    else expression.whenEquals(k, v);
  const update = {
    TableName: tableName('main'),
    Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
    ...expression.build(),
  };
  // Only the message's own condition means "too late"; a failed condition of the other items throws.
  return conditionalWrite(
    () =>
      extra.length === 0
        ? db().send(new UpdateCommand(update))
        : db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...extra] })),
    [0],
  );
}

/** What a message's status events carry: the message as it stood, and its conversation. */
export type MessageEventData = { message: Message; conversation_id: string };
export const MESSAGE_EVENTS_OUTBOX = 'events';

/**
 * The attributes a message's status write sets to carry the events of its change (`outbox = events`, the
 * dispatcher's stream filter), so they exist if and only if the write happened. Each event is kept as its
 * id, type, time and the fields in which the message it describes differs from the message as written
 * (the sandbox writes sent, delivered and read at once: the first two differ in status and a timestamp or
 * two), deflated: with its events aboard, a message of ordinary length stays one write unit.
 */
export function messageOutbox(written: Message, events: EventEnvelope<MessageEventData>[]) {
  const carried = events.map((e) => ({
    id: e.id,
    type: e.type,
    created_at: e.created_at,
    api_version: e.api_version,
    changed: Object.fromEntries(
      MESSAGE_FIELDS.filter((f) => JSON.stringify(e.data.message[f]) !== JSON.stringify(written[f])).map((f) => [
        f,
        e.data.message[f],
      ]),
    ),
  }));
  return { outbox: MESSAGE_EVENTS_OUTBOX, outbox_events: deflateRawSync(JSON.stringify(carried)) };
}

/** The events a message's stream image carries (messageOutbox), whole again; none for any other item. */
export function messageEventsOf(item: Record<string, unknown>): EventEnvelope<MessageEventData>[] {
  if (item.outbox !== MESSAGE_EVENTS_OUTBOX || !(item.outbox_events instanceof Uint8Array)) return [];
  const written = messageFromItem(item);
  const carried = JSON.parse(inflateRawSync(item.outbox_events).toString('utf8')) as {
    id: string;
    type: EventEnvelope['type'];
    created_at: string;
    api_version: 'v1';
    changed: Partial<Message>;
  }[];
  return carried.map((e) => ({
    id: e.id,
    type: e.type,
    created_at: e.created_at,
    tenant_id: written.tenant_id,
    api_version: e.api_version,
    data: { message: { ...written, ...e.changed }, conversation_id: written.conversation_id },
  }));
}

/** The send lease (ms since the epoch) of a queued outbound message that a sender took. */
const SEND_LEASE = 'send_lease_until';

/** A queued outbound message as the sender's guards see it. */
export interface QueuedSend {
  ref: MessageRef;
  message: Message;
  /** The lease of the sender that took it (ms), if one did: it may have reached the channel. */
  leaseUntil: number | null;
  /** How often the outbound sweeper handed it on again. */
  sweeps: number;
  /** When the outbound sweeper may take it over (its due-index sort key). */
  takeoverAt: string | null;
}

const queuedSendOfItem = (item: Record<string, unknown>): QueuedSend => {
  const message = messageFromItem(item);
  return {
    ref: { tenant_id: message.tenant_id, conversation_id: message.conversation_id, message_id: message.id },
    message,
    leaseUntil: typeof item[SEND_LEASE] === 'number' ? item[SEND_LEASE] : null,
    sweeps: Number(item.send_sweeps ?? 0),
    takeoverAt: typeof item.gsi5sk === 'string' ? item.gsi5sk : null,
  };
};

/** The message if it is still queued, with its send lease (a strongly consistent read). */
export async function queuedSendOf(ref: MessageRef): Promise<QueuedSend | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
      ConsistentRead: true,
    }),
  );
  return out.Item?.status === 'queued' ? queuedSendOfItem(out.Item) : undefined;
}

export type SendClaim = 'claimed' | 'not_queued' | 'held' | 'outcome_unknown';

/**
 * Claims a queued outbound message for sending, with a lease: SQS delivers at least once, and two
 * workers holding the same message must not both call the provider. A lease is taken once only: one
 * that ended without an outcome belonged to a sender that died, perhaps after the provider accepted the
 * message, so its outcome is unknown and it is never claimed again (status webhooks or the outbound
 * sweeper settle it). While held, the message is in the due index by `takeoverAt`.
 */
export async function claimForSending(
  ref: MessageRef,
  now: Date,
  leaseMs: number,
  takeoverAt: Date,
): Promise<SendClaim> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET #lease = :until, gsi5pk = :duePk, gsi5sk = :takeover',
        ConditionExpression: '#status = :queued AND attribute_not_exists(#lease)',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: {
          ':until': now.getTime() + leaseMs,
          ':queued': 'queued',
          ...dueValues(ref.message_id, takeoverAt),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    const item = refusedItem(error);
    if (item?.status !== 'queued') return 'not_queued';
    return Number(item[SEND_LEASE]) > now.getTime() ? 'held' : 'outcome_unknown';
  }
}

const dueValues = (id: string, takeoverAt: Date) => {
  const { gsi5pk, gsi5sk } = outboundDue(id, takeoverAt);
  return { ':duePk': gsi5pk, ':takeover': gsi5sk };
};

/**
 * Gives the lease back, after the channel refused the message (before handing it back to SQS for a
 * retry); the sweeper takes it over at `takeoverAt` should that retry be lost.
 */
export async function releaseSendClaim(ref: MessageRef, takeoverAt: Date): Promise<void> {
  // Only while queued: a message past it may carry its last change's events, which a write would repeat.
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'REMOVE #lease SET gsi5pk = :duePk, gsi5sk = :takeover',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: { ':queued': 'queued', ...dueValues(ref.message_id, takeoverAt) },
      }),
    ),
  );
}

/** Queued outbound messages the outbound sweeper may take over at `now`, oldest first in each due shard. */
export async function overdueSends(now: Date, limitPerShard: number): Promise<QueuedSend[]> {
  const items = await dueItems(OUTBOUND_DUE_KIND, now, limitPerShard);
  return items.filter((item) => item.status === 'queued').map(queuedSendOfItem);
}

/**
 * Claims an overdue message that no sender holds, for the outbound sweeper to hand on again: only if
 * nothing happened to it since it was read, so two sweeps never both hand it on. It is taken over again
 * at `takeoverAt` should that hand-off be lost too.
 */
export async function claimOverdueSend(send: QueuedSend, takeoverAt: Date): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(send.ref.tenant_id, send.ref.conversation_id, send.ref.message_id),
        UpdateExpression: 'SET gsi5pk = :duePk, gsi5sk = :takeover ADD send_sweeps :one',
        ConditionExpression: '#status = :queued AND attribute_not_exists(#lease) AND gsi5sk = :seen',
        ExpressionAttributeNames: { '#status': 'status', '#lease': SEND_LEASE },
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':one': 1,
          ':seen': send.takeoverAt,
          ...dueValues(send.ref.message_id, takeoverAt),
        },
      }),
    ),
  );
}

/** The condition under which a queued message is still as `send` saw it: the same lease, or none. */
export const sameSendLease = (send: QueuedSend): Record<string, unknown> => ({ [SEND_LEASE]: send.leaseUntil });

/**
 * Stores a message's analysis once: a redelivered stream record finds it already there and gets the
 * stored one back, so the handoff decision is made on the same verdict. `A` is the writer's own,
 * narrower type: what it reads back is what it stored.
 */
export async function recordAnalysis<A extends MessageAnalysis>(ref: MessageRef, analysis: A): Promise<A | undefined> {
  const stored = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET analysis = :a',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(analysis) OR analysis = :null)',
        ExpressionAttributeValues: { ':a': analysis, ':null': null },
      }),
    ),
  );
  if (stored) return analysis;
  return ((await getMessage(ref))?.analysis as A | null | undefined) ?? undefined;
}

/**
 * The customer's next messages after this one, oldest first, with their analyses (null where not yet
 * analysed): one strongly consistent Query. A message analysed late (stream records of parallel shards
 * come in any order) re-checks these, which were judged without it.
 */
export async function laterInboundAnalyses<A extends MessageAnalysis = MessageAnalysis>(
  ref: MessageRef,
  count: number,
): Promise<{ message_id: string; analysis: A | null }[]> {
  const ownSk = messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk;
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': tenantPk(ref.tenant_id),
        ':from': ownSk,
        ':to': `CONV#${ref.conversation_id}#MSG#~`,
      },
      ExpressionAttributeNames: { '#direction': 'direction', '#id': 'id' },
      ProjectionExpression: 'sk, #id, #direction, analysis',
      Limit: 25,
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? [])
    .filter((item) => item.sk !== ownSk && item.direction === 'inbound')
    .slice(0, count)
    .map((item) => ({ message_id: String(item.id), analysis: (item.analysis as A | undefined) ?? null }));
}

/** The analyses of the customer's messages before this one, newest first (one Query, no Scan); `A` as for recordAnalysis. */
export async function earlierInboundAnalyses<A extends MessageAnalysis = MessageAnalysis>(
  ref: MessageRef,
  count: number,
): Promise<(A | null)[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': tenantPk(ref.tenant_id),
        ':from': `CONV#${ref.conversation_id}#MSG#`,
        ':to': messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk,
      },
      ExpressionAttributeNames: { '#direction': 'direction' },
      ProjectionExpression: 'sk, #direction, analysis',
      ScanIndexForward: false,
      Limit: 25,
      ConsistentRead: true,
    }),
  );
  const ownSk = messageKey(ref.tenant_id, ref.conversation_id, ref.message_id).sk;
  return (out.Items ?? [])
    .filter((item) => item.sk !== ownSk && item.direction === 'inbound')
    .slice(0, count)
    .map((item) => (item.analysis as A | undefined) ?? null);
}

/** The customer reacted to a message (or took the reaction back: null). Only a newer reaction wins. */
export async function setReaction(ref: MessageRef, reaction: { emoji: string; reacted_at: string } | null, at: string) {
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET reaction = :r, reaction_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(reaction_at) OR reaction_at < :at)',
        ExpressionAttributeValues: { ':r': reaction, ':at': at },
      }),
    ),
  );
}

/**
 * A send that may have reached the provider but whose answer was lost: the message stays queued with the
 * reason, under a lease no retry outlives (a week), so nothing resends it; the provider's status
 * webhooks settle it (they name the message), or a person sends it again.
 */
export async function markOutcomeUnknown(ref: MessageRef, reason: string, now: Date): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
        UpdateExpression: 'SET send_lease_until = :until, #error = :error, updated_at = :at',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':until': now.getTime() + 7 * 86_400_000,
          ':error': { code: 'outcome_unknown', message: `The channel may have sent this message: ${reason}` },
          ':at': now.toISOString(),
          ':queued': 'queued',
        },
      }),
    ),
  );
}
