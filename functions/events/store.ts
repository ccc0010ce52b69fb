import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../platform/clock';
import { db } from '../platform/db';
import { tableName } from '../platform/config';
import { newId } from '../platform/ids';
import { queryPage } from '../platform/pagination';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { eventCategory, type EventEnvelope, type EventType } from './catalog';

const ENVELOPE_FIELDS = ['id', 'type', 'created_at', 'tenant_id', 'api_version', 'data'] as const;

/**
 * Events are the transactional outbox: `eventPut` returns a TransactWriteItems entry that features add to
 * the transaction of the change itself, so an event exists if and only if its change happened. The table
 * stream carries them to the dispatcher. A message's status events ride on the message's own write instead
 * (conversations/store's messageOutbox): the dispatcher stores them (`storeDispatchedEvents`) and fans
 * them out from that record. They are kept 30 days.
 *   pk TENANT#<t>  sk EVT#<ulid>                 all events, newest first; conversation types filtered
 *   gsi1 TENANT#<t>#EVTCAT#<category>            the other categories (`booking.*`): sparse
 *   gsi2 TENANT#<t>#EVTTYPE#<type>               the other exact types: sparse
 * Conversation events are most of a tenant's events (every message sends, delivers and is read), so their
 * lists (`conversation.*` and each conversation type) read all events and keep theirs by `etype`, instead
 * of each event paying one or two index entries.
 */
export const EVENT_RETENTION_SECONDS = 30 * 86_400;
export const EVENT_SK_PREFIX = 'EVT#';
/** The category served by the all-events sequence with a filter rather than by gsi1. */
const FILTERED_CATEGORY = 'conversation';

export function newEvent<T extends object>(
  tenantId: string,
  type: EventType,
  data: T,
  now: Date,
): EventEnvelope<T & Record<string, unknown>> {
  return {
    id: newId('evt'),
    type,
    created_at: now.toISOString(),
    tenant_id: tenantId,
    api_version: 'v1',
    data: data as T & Record<string, unknown>,
  };
}

const typeKey = (pk: string, type: string) => `${pk}#EVTTYPE#${type}`;

/** An event's item: key, the index keys of its category and type (unless filtered), expiry and the envelope. */
function eventItem(event: EventEnvelope<object>) {
  const pk = tenantPk(event.tenant_id);
  const filtered = eventCategory(event.type) === FILTERED_CATEGORY;
  return {
    pk,
    sk: `${EVENT_SK_PREFIX}${event.id}`,
    ...(filtered
      ? { etype: typeKey(pk, event.type) }
      : {
          gsi1pk: `${pk}#EVTCAT#${eventCategory(event.type)}`,
          gsi1sk: event.id,
          gsi2pk: typeKey(pk, event.type),
          gsi2sk: event.id,
        }),
    ttl: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_RETENTION_SECONDS,
    // The JSON text, deflated: read back exactly as written, and about half the bytes, so an event item
    // (and each index entry, which holds all of it) stays under 1 KB: one write unit.
    event: deflateRawSync(JSON.stringify(event)),
  };
}

export function eventPut(event: EventEnvelope<object>) {
  return { Put: { TableName: tableName('main'), Item: eventItem(event) } };
}

/**
 * An event stored by the dispatcher from a message's outbox: marked `dispatched`, so the stream filter does
 * not hand it to the dispatcher a second time (the dispatcher fans it out from the message's record).
 */
const dispatchedEventItem = (event: EventEnvelope<object>) => ({ ...eventItem(event), dispatched: true });

/**
 * Stores events taken from a message's outbox, 25 to a BatchWriteItem, retrying what DynamoDB leaves
 * unprocessed. Rewriting one (a retried stream batch) writes the same item again.
 */
export async function storeDispatchedEvents(events: EventEnvelope<object>[]): Promise<void> {
  for (let i = 0; i < events.length; i += 25) {
    let requests = events.slice(i, i + 25).map((e) => ({ PutRequest: { Item: dispatchedEventItem(e) } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 2_000)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName('main')]: requests } }));
      requests = (out.UnprocessedItems?.[tableName('main')] ?? []) as typeof requests;
      if (attempt >= 8 && requests.length > 0) throw new Error('events left unprocessed by DynamoDB');
    }
  }
}

export interface EventQuery {
  /** An exact type or a pattern (`*`, `booking.*`, ...). */
  type?: string;
  /** ULID-based sort-key bounds for the time window. */
  fromId?: string;
  toId?: string;
  limit: number;
  cursor?: string;
}

/**
 * One Query per page: the base table for all events, gsi1 for a category, gsi2 for an exact type.
 * `conversation.*` and the conversation types read the base table and keep the items whose type key
 * (`etype`) matches; events written before the indexes became sparse carry it as `gsi2pk`.
 */
export async function listEvents(
  tenantId: string,
  q: EventQuery,
): Promise<{ items: EventEnvelope[]; hasMore: boolean; nextCursor: string | null }> {
  const pk = tenantPk(tenantId);
  const type = q.type && q.type !== '*' ? q.type : undefined;
  const category = type?.endsWith('.*') ? type.slice(0, -2) : undefined;
  const filtered = type !== undefined && eventCategory(type) === FILTERED_CATEGORY;
  const [index, pkName, skName, pkValue, skPrefix] =
    !type || filtered
      ? [undefined, 'pk', 'sk', pk, EVENT_SK_PREFIX]
      : category
        ? ['gsi1', 'gsi1pk', 'gsi1sk', `${pk}#EVTCAT#${category}`, 'evt_']
        : ['gsi2', 'gsi2pk', 'gsi2sk', typeKey(pk, type), 'evt_'];
  const lower = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.fromId ?? 'evt_'}`;
  const upper = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.toId ?? 'evt_~'}`;
  const filter = filtered
    ? category
      ? {
          FilterExpression: 'begins_with(etype, :type) OR begins_with(gsi2pk, :type)',
          ExpressionAttributeValues: { ':type': typeKey(pk, `${category}.`) },
        }
      : {
          FilterExpression: 'etype = :type OR gsi2pk = :type',
          ExpressionAttributeValues: { ':type': typeKey(pk, type) },
        }
    : undefined;
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: index,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
      ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
      ExpressionAttributeValues: {
        ':pk': pkValue,
        ':lower': lower,
        ':upper': upper,
        ...filter?.ExpressionAttributeValues,
      },
      ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
    },
    q,
    // Bound to the index, the type and the window too: a cursor only resumes the query that issued it (one
    // from before a type moved from gsi2 to the filtered base table is refused, not misread).
    { owner: tenantId, list: `events:${index ?? 'base'}:${type ?? '*'}:${q.fromId ?? ''}:${q.toId ?? ''}` },
    index ? ['pk', 'sk', pkName, skName] : ['pk', 'sk'],
  );
  return { ...page, items: page.items.map((item) => eventFromItem(item)) };
}

/**
 * One event of the tenant, by id: a strongly consistent Get. An event past its 30 days that DynamoDB has
 * not yet removed (TTL deletes within days) counts as gone, as it is for the list's readers.
 */
export async function getEvent(tenantId: string, id: string, now: Date): Promise<EventEnvelope | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: { pk: tenantPk(tenantId), sk: `${EVENT_SK_PREFIX}${id}` },
      ConsistentRead: true,
    }),
  );
  const item = out.Item;
  if (!item || (typeof item.ttl === 'number' && item.ttl <= epochSeconds(now))) return undefined;
  return eventFromItem(item);
}

/** Events written before they were deflated hold the JSON text itself (they expire within 30 days). */
const eventText = (stored: unknown): string =>
  stored instanceof Uint8Array ? inflateRawSync(stored).toString('utf8') : String(stored);

export const eventFromItem = (item: Record<string, unknown>): EventEnvelope =>
  inOrder<EventEnvelope>(JSON.parse(eventText(item.event)) as Record<string, unknown>, ENVELOPE_FIELDS);
