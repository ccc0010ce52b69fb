// Public: every feature writes its events in its own transaction (the outbox).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../platform/clock';
import { db } from '../platform/db';
import { tableName } from '../platform/config';
import { idAfter, newId } from '../platform/ids';
import { decodeCursor, encodeCursor, invalidCursor, MAX_FILTERED_READ, queryPage } from '../platform/pagination';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { eventCategory, type EventEnvelope, type EventType } from './catalog';

const ENVELOPE_FIELDS = ['id', 'type', 'created_at', 'tenant_id', 'api_version', 'data'] as const;

/**
 * Events are the transactional outbox: `eventPut` returns a TransactWriteItems entry that features add to
 * the transaction of the change itself, so an event exists if and only if its change happened. The table
 * stream carries them to the dispatcher. A message's status events ride on the message's own write instead
 * (conversations/store's messageOutbox): the dispatcher stores them (`storeDispatchedEvents`) and fans
 * them out from that record, the events of one change in one item. They are kept 30 days.
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
  id = newId('evt'),
): EventEnvelope<T & Record<string, unknown>> {
  return {
    id,
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

/** The millisecond part of an event id (a ULID starts with its time). */
const idMillisecond = (id: string) => id.slice(0, 'evt_'.length + 10);

/**
 * The events of one change, stored by the dispatcher from a message's outbox, as one item: `events` holds
 * their envelopes deflated together (the sandbox's sent, delivered and read: one write unit, where three
 * items cost three), keyed by the first id. They share their id's millisecond, and ids made in one
 * millisecond by one process are consecutive (platform/ids), so no other event's id falls among theirs:
 * the item sorts where its events do, and a time window takes all of them or none. `etypes` lets a type's
 * list find the item; `dispatched` keeps the stream filter from handing it to the dispatcher again (it
 * fanned them out from the message's record).
 */
function dispatchedEventsItem(events: EventEnvelope<object>[]) {
  const [first] = events;
  if (!first) throw new Error('no events to store');
  const pk = tenantPk(first.tenant_id);
  return {
    pk,
    sk: `${EVENT_SK_PREFIX}${first.id}`,
    etype: typeKey(pk, first.type),
    // Bare type names: the item's key already names the tenant, and every byte counts toward the 1 KB unit.
    etypes: new Set(events.map((e) => e.type)),
    ttl: Math.floor(Date.parse(first.created_at) / 1000) + EVENT_RETENTION_SECONDS,
    events: deflateRawSync(JSON.stringify(events)),
    dispatched: true,
  };
}

/**
 * Whether events can share an item: one tenant's conversation events whose ids are consecutive (each the
 * one after the other, platform/ids newIdSeries) in one millisecond, so no other id can fall among them.
 */
const shareAnItem = (events: EventEnvelope<object>[]) =>
  events.length > 1 &&
  events.every(
    (e, i) =>
      e.tenant_id === events[0]?.tenant_id &&
      eventCategory(e.type) === FILTERED_CATEGORY &&
      idMillisecond(e.id) === idMillisecond(events[0].id) &&
      (i === 0 || e.id === idAfter(events[i - 1]?.id ?? '')),
  );

/** The items of the events taken from a message's outbox: one when they can share it (above), else one each. */
export const dispatchedEventItems = (events: EventEnvelope<object>[]): Record<string, unknown>[] =>
  shareAnItem(events) ? [dispatchedEventsItem(events)] : events.map((e) => ({ ...eventItem(e), dispatched: true }));

/**
 * Stores the events taken from a message's outbox, 25 items to a BatchWriteItem, retrying what DynamoDB
 * leaves unprocessed. Rewriting them (a retried stream batch) writes the same items again.
 */
export async function storeDispatchedEvents(events: EventEnvelope<object>[]): Promise<void> {
  const items = dispatchedEventItems(events);
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
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
  /** Only events whose id is above this one (exclusive); base-table reads are then strongly consistent. */
  afterId?: string;
  limit: number;
  cursor?: string;
}

/**
 * The lower id bound of a query with `afterId`: ids sort, and nothing sorts between an id and the id with
 * `!` appended (ids hold no `!`), so this keeps every id above `afterId` and drops `afterId` itself.
 */
const aboveId = (id: string) => `${id}!`;

/**
 * One Query per page: the base table for all events, gsi1 for a category, gsi2 for an exact type.
 * `conversation.*` and the conversation types read the base table and keep the items whose type key
 * (`etype`, or one of `etypes` for an item of several events) matches; events written before the indexes
 * became sparse carry it as `gsi2pk`.
 */
export async function listEvents(
  tenantId: string,
  q: EventQuery,
): Promise<{ items: EventEnvelope[]; hasMore: boolean; nextCursor: string | null }> {
  const pk = tenantPk(tenantId);
  const type = q.type && q.type !== '*' ? q.type : undefined;
  const category = type?.endsWith('.*') ? type.slice(0, -2) : undefined;
  if (type && eventCategory(type) !== FILTERED_CATEGORY) {
    const [index, pkName, skName, pkValue] = category
      ? ['gsi1', 'gsi1pk', 'gsi1sk', `${pk}#EVTCAT#${category}`]
      : ['gsi2', 'gsi2pk', 'gsi2sk', typeKey(pk, type)];
    const page = await queryPage(
      {
        TableName: tableName('main'),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
        ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
        ExpressionAttributeValues: { ':pk': pkValue, ':lower': lowerId(q), ':upper': q.toId ?? 'evt_~' },
      },
      q,
      // Bound to the index, the type and the window too: a cursor only resumes the query that issued it (one
      // from before a type moved from gsi2 to the filtered base table is refused, not misread).
      { owner: tenantId, list: `events:${index}:${type}:${lowerId(q)}:${q.toId ?? ''}` },
      ['pk', 'sk', pkName, skName],
    );
    return { ...page, items: page.items.map((item) => eventFromItem(item)) };
  }
  const filter: { FilterExpression: string; ExpressionAttributeValues: Record<string, string> } | undefined = !type
    ? undefined
    : category
      ? {
          FilterExpression: 'begins_with(etype, :type) OR begins_with(gsi2pk, :type)',
          ExpressionAttributeValues: { ':type': typeKey(pk, `${category}.`) },
        }
      : {
          FilterExpression: 'etype = :type OR gsi2pk = :type OR contains(etypes, :name)',
          ExpressionAttributeValues: { ':type': typeKey(pk, type), ':name': type },
        };
  const wanted = (e: EventEnvelope) => !type || (category ? e.type.startsWith(`${category}.`) : e.type === type);
  return eventSequencePage(tenantId, q, filter, wanted, `events:base:${type ?? '*'}:${lowerId(q)}:${q.toId ?? ''}`);
}

/** The lowest id a query keeps: its window's start, or just above `afterId` when that is higher. */
const lowerId = (q: EventQuery): string => {
  const from = q.fromId ?? 'evt_';
  return q.afterId && aboveId(q.afterId) > from ? aboveId(q.afterId) : from;
};

/**
 * A page of the tenant's events in the base table, newest first. An item may hold several events (the
 * dispatcher's, above), so a page counts events, not items, and its cursor is the last event returned: the
 * next page reads the items keyed up to it (the item that holds it too) and keeps the events below it.
 * With a filter it reads on like queryPage, evaluating at most MAX_FILTERED_READ items.
 */
async function eventSequencePage(
  tenantId: string,
  q: EventQuery,
  filter: { FilterExpression: string; ExpressionAttributeValues: Record<string, string> } | undefined,
  wanted: (e: EventEnvelope) => boolean,
  list: string,
): Promise<{ items: EventEnvelope[]; hasMore: boolean; nextCursor: string | null }> {
  const binding = { owner: tenantId, list };
  const below = q.cursor ? belowOf(await decodeCursor(binding, q.cursor)) : undefined;
  const fromId = lowerId(q);
  const toId = q.toId ?? 'evt_~';
  // An item holding several events is keyed by its first: one keyed below `afterId` (in its millisecond)
  // may hold events above it, so the items are read from that millisecond and the events kept by id.
  const fromItem = q.afterId && fromId === aboveId(q.afterId) ? idMillisecond(q.afterId) : fromId;
  const keep = (e: EventEnvelope) =>
    e.id >= fromId && e.id <= toId && (below === undefined || e.id < below) && wanted(e);
  const events: EventEnvelope[] = [];
  let startKey: Record<string, unknown> | undefined;
  let evaluated = 0;
  do {
    const range = eventItemRange(tenantId, fromItem, below !== undefined && below < toId ? below : toId);
    const out = await db().send(
      new QueryCommand({
        ...range,
        ExpressionAttributeValues: { ...range.ExpressionAttributeValues, ...filter?.ExpressionAttributeValues },
        ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
        ScanIndexForward: false,
        // A client resuming after a drop must see every event committed before it asked.
        ...(q.afterId ? { ConsistentRead: true } : {}),
        Limit: Math.min((q.limit + 1 - events.length) * (filter ? 2 : 1), MAX_FILTERED_READ - evaluated),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of out.Items ?? [])
      events.push(
        ...eventsFromItem(item)
          .filter(keep)
          .sort((a, b) => (a.id < b.id ? 1 : -1)),
      );
    evaluated += out.ScannedCount ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (events.length <= q.limit && startKey && evaluated < MAX_FILTERED_READ);
  const items = events.slice(0, q.limit);
  // More than the page: resume below its last event. The reading stopped short (at its bound, or at
  // DynamoDB's 1 MB) with the sequence going on: resume below the last item it evaluated.
  const resumeBelow =
    events.length > q.limit ? items[items.length - 1]?.id : startKey ? idOfKey(startKey.sk) : undefined;
  return {
    items,
    hasMore: resumeBelow !== undefined,
    nextCursor: resumeBelow !== undefined ? await encodeCursor(binding, { below: resumeBelow }) : null,
  };
}

/** A Query of the tenant's event items keyed from `fromId` to `toId` (both included, as id prefixes). */
const eventItemRange = (tenantId: string, fromId: string, toId: string) => ({
  TableName: tableName('main'),
  KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
  ExpressionAttributeValues: {
    ':pk': tenantPk(tenantId),
    ':lower': `${EVENT_SK_PREFIX}${fromId}`,
    ':upper': `${EVENT_SK_PREFIX}${toId}`,
  } as Record<string, string>,
});

const idOfKey = (sk: unknown) => (typeof sk === 'string' ? sk.slice(EVENT_SK_PREFIX.length) : undefined);

/** Where a cursor resumes: below an event id (cursors issued before held the last item's key instead). */
export function belowOf(cursor: Record<string, unknown>): string {
  const below = typeof cursor.below === 'string' ? cursor.below : idOfKey(cursor.sk);
  if (below === undefined) throw invalidCursor();
  return below;
}

/**
 * One event of the tenant, by id: a strongly consistent Query for the last item keyed in the id's
 * millisecond up to the id, the item that holds it (its own, or that of its change's first event). An
 * event past its 30 days that DynamoDB has not yet removed (TTL deletes within days) counts as gone, as it
 * is for the list's readers.
 */
export async function getEvent(tenantId: string, id: string, now: Date): Promise<EventEnvelope | undefined> {
  const out = await db().send(
    new QueryCommand({
      ...eventItemRange(tenantId, idMillisecond(id), id),
      ScanIndexForward: false,
      ConsistentRead: true,
      // The first item at or below the id holds it, if any does: no other id falls inside an item's run.
      Limit: 1,
    }),
  );
  const item = out.Items?.[0];
  if (!item || (typeof item.ttl === 'number' && item.ttl <= epochSeconds(now))) return undefined;
  return eventsFromItem(item).find((e) => e.id === id);
}

/** Events written before they were deflated hold the JSON text itself (they expire within 30 days). */
const eventText = (stored: unknown): string =>
  stored instanceof Uint8Array ? inflateRawSync(stored).toString('utf8') : String(stored);

export const eventFromItem = (item: Record<string, unknown>): EventEnvelope =>
  inOrder<EventEnvelope>(JSON.parse(eventText(item.event)) as Record<string, unknown>, ENVELOPE_FIELDS);

/** The events an item holds: several (the dispatcher's item of one change), or its one. */
export const eventsFromItem = (item: Record<string, unknown>): EventEnvelope[] =>
  item.events instanceof Uint8Array
    ? (JSON.parse(inflateRawSync(item.events).toString('utf8')) as Record<string, unknown>[]).map((e) =>
        inOrder<EventEnvelope>(e, ENVELOPE_FIELDS),
      )
    : [eventFromItem(item)];
