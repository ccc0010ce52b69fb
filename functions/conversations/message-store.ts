import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../events/catalog';
import { conditionalWrite, db, type TransactItem } from '../platform/db';
import { tableName } from '../platform/config';
import { tenantPk } from '../platform/keys';
import { UpdateBuilder } from '../platform/expressions';
import { dueIndexKeys } from '../platform/due-index';
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

/** Queued outbound messages, in the due index by the time the outbound sweeper may take them over. */
/** The send lease (ms since the epoch) of a queued outbound message that a sender took. */
export const SEND_LEASE = 'send_lease_until';

export const OUTBOUND_DUE_KIND = 'MSGDUE';
export const outboundDue = (id: string, takeoverAt: Date) =>
  dueIndexKeys(OUTBOUND_DUE_KIND, id, takeoverAt.toISOString());

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
