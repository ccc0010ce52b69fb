import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
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
 * stream carries them to the dispatcher. They are kept 30 days.
 *   pk TENANT#<t>  sk EVT#<ulid>                 all events, newest first; `conversation.*` filtered
 *   gsi1 TENANT#<t>#EVTCAT#<category>            the other categories (`booking.*`): sparse
 *   gsi2 TENANT#<t>#EVTTYPE#<type>               exact type
 * Conversation events are most of a tenant's events (every message sends, delivers and is read), so their
 * category list reads all events and skips the few others, instead of each one paying a third index entry.
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

export function eventPut(event: EventEnvelope<object>) {
  const pk = tenantPk(event.tenant_id);
  const category = eventCategory(event.type);
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        pk,
        sk: `${EVENT_SK_PREFIX}${event.id}`,
        ...(category === FILTERED_CATEGORY ? {} : { gsi1pk: `${pk}#EVTCAT#${category}`, gsi1sk: event.id }),
        gsi2pk: typeKey(pk, event.type),
        gsi2sk: event.id,
        ttl: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_RETENTION_SECONDS,
        // The JSON text, deflated: read back exactly as written, and about half the bytes. An event item
        // then stays under 1 KB, and so does each index entry (which holds all of it): a message event
        // costs 4 write units in a transaction instead of 12 (docs/data-model.md).
        event: deflateRawSync(JSON.stringify(event)),
      },
    },
  };
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
 * `conversation.*` reads the base table and keeps the items whose type key is in that category (events
 * written before gsi1 became sparse are kept the same way).
 */
export async function listEvents(
  tenantId: string,
  q: EventQuery,
): Promise<{ items: EventEnvelope[]; hasMore: boolean; nextCursor: string | null }> {
  const pk = tenantPk(tenantId);
  const type = q.type && q.type !== '*' ? q.type : undefined;
  const category = type?.endsWith('.*') ? type.slice(0, -2) : undefined;
  const [index, pkName, skName, pkValue, skPrefix] =
    !type || category === FILTERED_CATEGORY
      ? [undefined, 'pk', 'sk', pk, EVENT_SK_PREFIX]
      : category
        ? ['gsi1', 'gsi1pk', 'gsi1sk', `${pk}#EVTCAT#${category}`, 'evt_']
        : ['gsi2', 'gsi2pk', 'gsi2sk', typeKey(pk, type), 'evt_'];
  const lower = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.fromId ?? 'evt_'}`;
  const upper = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.toId ?? 'evt_~'}`;
  const filter =
    category === FILTERED_CATEGORY
      ? {
          FilterExpression: 'begins_with(gsi2pk, :category)',
          ExpressionAttributeValues: { ':category': typeKey(pk, `${category}.`) },
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
    // Bound to the type and the window too: a cursor only resumes the query that issued it.
    { owner: tenantId, list: `events:${type ?? '*'}:${q.fromId ?? ''}:${q.toId ?? ''}` },
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
