// Public: channels and the outbox dispatcher update messages and read their events.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../events/catalog';
import { conditionalWrite, db, type TransactItem } from '../platform/db';
import { tableName } from '../platform/config';
import { tenantPk } from '../platform/keys';
import { UpdateBuilder } from '../platform/expressions';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import type { TemplateContent } from './message-kinds';
import { tenantItemsPage } from '../platform/pagination';
import {
  MESSAGE_FIELDS,
  type ChannelKind,
  type Conversation,
  type Message,
  type MessageStatus,
  OUTBOUND_TAKEOVER_MS,
} from './conversation';

import { messageKey, messageFromItem, refreshTagSnapshots } from './store';

/** Messages of a conversation, their provider-id claims and the events their writes carry (keys: store.ts). */

const providerKey = (tenantId: string, channel: ChannelKind, providerId: string) => ({
  pk: tenantPk(tenantId),
  sk: `PMSG#${channel}#${providerId}`,
});

/**
 * Puts an outbound message (its own outbox record: the dispatcher's stream filter picks it up) and
 * refreshes the conversation's tag snapshots beside it, each only if it still exists and is older.
 */
export async function putOutboundMessage(message: Message, conversation: Conversation): Promise<void> {
  await Promise.all([db().send(new PutCommand(messagePut(message).Put)), refreshTagSnapshots(conversation)]);
}

export async function listMessages(
  tenantId: string,
  conversationId: string,
  request: { limit: number; cursor?: string },
) {
  const page = await tenantItemsPage(tenantId, `CONV#${conversationId}#MSG#`, `messages:${conversationId}`, request);
  return { ...page, items: page.items.map(messageFromItem) };
}

/** The send lease (ms since the epoch) of a queued outbound message that a sender took. */
export const SEND_LEASE = 'send_lease_until';

export const OUTBOUND_DUE_KIND = 'MSGDUE';
export const outboundDue = (id: string, takeoverAt: Date) =>
  dueIndexKeys(OUTBOUND_DUE_KIND, id, takeoverAt.toISOString());

/**
 * A new message; queued outbound messages carry the outbox marker the dispatcher's filter picks up, and
 * enter the due index, so the outbound sweeper finds them should that hand-off be lost.
 */
export function messagePut(message: Message, options: { mediaSourceId?: string; replyPayload?: string } = {}) {
  const queued = message.direction === 'outbound' && message.status === 'queued';
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        ...messageKey(message.tenant_id, message.conversation_id, message.id),
        // Where a pending file is fetched from, and what a tap carried back: on the item for the stream
        // reactions, never in the API's view.
        ...(options.mediaSourceId ? { [MEDIA_SOURCE]: options.mediaSourceId } : {}),
        ...(options.replyPayload ? { [REPLY_PAYLOAD]: options.replyPayload } : {}),
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

const MEDIA_SOURCE = 'media_source_id';
/** The provider's media id on a message item (a stream image): set only while its file is to be fetched. */
export const mediaSourceOf = (item: Record<string, unknown>): string | undefined =>
  typeof item[MEDIA_SOURCE] === 'string' ? item[MEDIA_SOURCE] : undefined;

const REPLY_PAYLOAD = 'reply_payload';
/** What a tap carried back, on an inbound message item (a stream image) that was stored with one. */
export const replyPayloadOf = (item: Record<string, unknown>): string | undefined =>
  typeof item[REPLY_PAYLOAD] === 'string' ? item[REPLY_PAYLOAD] : undefined;

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
  tenantId: string,
  channel: ChannelKind,
  providerId: string,
): Promise<MessageRef | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: providerKey(tenantId, channel, providerId),
      ConsistentRead: true,
    }),
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

/** Scheduled outbound messages, in the due index by `scheduled_at`, with the fallback their time may need. */
export const SCHEDULED_DUE_KIND = 'MSGSCHED';
const FALLBACK_TEMPLATE = 'fallback_template';

/** A message given `send_at`: no outbox marker (nothing sends it yet), due at its time. */
export async function putScheduledMessage(message: Message, fallbackTemplate: TemplateContent | null): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: {
        ...messageKey(message.tenant_id, message.conversation_id, message.id),
        ...dueIndexKeys(SCHEDULED_DUE_KIND, message.id, message.scheduled_at ?? message.created_at),
        ...(fallbackTemplate ? { [FALLBACK_TEMPLATE]: fallbackTemplate } : {}),
        ...message,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export interface DueScheduledMessage {
  message: Message;
  fallbackTemplate: TemplateContent | null;
}

/** Scheduled messages whose time has come (across tenants), oldest first per due shard. */
export async function dueScheduledMessages(now: Date, limitPerShard: number): Promise<DueScheduledMessage[]> {
  return (await dueItems(SCHEDULED_DUE_KIND, now, limitPerShard))
    .filter((item) => item.status === 'scheduled')
    .map((item) => ({
      message: messageFromItem(item),
      fallbackTemplate: (item[FALLBACK_TEMPLATE] as TemplateContent | undefined) ?? null,
    }));
}

/**
 * A scheduled message's time came: queued as `message` says (its kind may be the fallback template), in
 * the outbound due index so the outbound sweeper hands it on should its hand-off to the sender be lost.
 * Only from `scheduled`: a repeated run, or a cancel that got in first, changes nothing (false).
 */
export async function releaseScheduled(message: Message, now: Date): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(message.tenant_id, message.conversation_id, message.id),
        UpdateExpression:
          'SET #status = :queued, #type = :type, #text = :text, content = :content, updated_at = :at, gsi5pk = :duePk, gsi5sk = :dueSk REMOVE fallback_template',
        ConditionExpression: '#status = :scheduled',
        ExpressionAttributeNames: { '#status': 'status', '#type': 'type', '#text': 'text' },
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':scheduled': 'scheduled',
          ':type': message.type,
          ':text': message.text,
          ':content': message.content ?? null,
          ':at': now.toISOString(),
          ...Object.fromEntries(
            Object.entries(outboundDue(message.id, new Date(now.getTime() + OUTBOUND_TAKEOVER_MS))).map(([k, v]) => [
              k === 'gsi5pk' ? ':duePk' : ':dueSk',
              v,
            ]),
          ),
        },
      }),
    ),
  );
}

/** An inbound message whose file is still to be fetched, with the provider's id to fetch it by. */
export async function pendingMedia(ref: MessageRef): Promise<{ message: Message; sourceId: string } | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: messageKey(ref.tenant_id, ref.conversation_id, ref.message_id),
      ConsistentRead: true,
    }),
  );
  const sourceId: unknown = out.Item?.[MEDIA_SOURCE];
  if (!out.Item || typeof sourceId !== 'string') return undefined;
  const message = messageFromItem(out.Item);
  return message.media?.status === 'pending' ? { message, sourceId } : undefined;
}

/**
 * A pending file's outcome (`stored` or `failed`), with the events of the change aboard (messageOutbox),
 * only while it is still pending: a repeated fetch changes nothing (false).
 */
export async function settleMedia(written: Message, events: EventEnvelope<MessageEventData>[]): Promise<boolean> {
  const update = new UpdateBuilder().set('media', written.media ?? null).set('updated_at', written.updated_at);
  if (events.length) for (const [k, v] of Object.entries(messageOutbox(written, events))) update.set(k, v);
  update.when(`${update.name('media')}.${update.name('status')} = ${update.value('pending')}`);
  return conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: messageKey(written.tenant_id, written.conversation_id, written.id),
        ...update.build(),
      }),
    ),
  );
}
