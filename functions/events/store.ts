import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 *   pk TENANT#<t>  sk EVT#<ulid>                 all events, newest first
 *   gsi1 TENANT#<t>#EVTCAT#<category>            `conversation.*`, `booking.*`
 *   gsi2 TENANT#<t>#EVTTYPE#<type>               exact type
 */
export const EVENT_RETENTION_SECONDS = 30 * 86_400;
export const EVENT_SK_PREFIX = 'EVT#';

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

export function eventPut(event: EventEnvelope<object>) {
  const pk = tenantPk(event.tenant_id);
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        pk,
        sk: `${EVENT_SK_PREFIX}${event.id}`,
        gsi1pk: `${pk}#EVTCAT#${eventCategory(event.type)}`,
        gsi1sk: event.id,
        gsi2pk: `${pk}#EVTTYPE#${event.type}`,
        gsi2sk: event.id,
        ttl: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_RETENTION_SECONDS,
        // The JSON text, deflated: read back exactly as written, and about half the bytes. An event item
        // then stays under 1 KB, and so do its two index entries (which hold all of it): a message event
        // costs 6 write units in a transaction instead of 12 (docs/data-model.md).
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

/** One Query per page: the base table for all events, gsi1 for a category, gsi2 for an exact type. */
export async function listEvents(
  tenantId: string,
  q: EventQuery,
): Promise<{ items: EventEnvelope[]; hasMore: boolean; nextCursor: string | null }> {
  const pk = tenantPk(tenantId);
  const type = q.type && q.type !== '*' ? q.type : undefined;
  const [index, pkName, skName, pkValue, skPrefix] = !type
    ? [undefined, 'pk', 'sk', pk, EVENT_SK_PREFIX]
    : type.endsWith('.*')
      ? ['gsi1', 'gsi1pk', 'gsi1sk', `${pk}#EVTCAT#${type.slice(0, -2)}`, 'evt_']
      : ['gsi2', 'gsi2pk', 'gsi2sk', `${pk}#EVTTYPE#${type}`, 'evt_'];
  const lower = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.fromId ?? 'evt_'}`;
  const upper = `${skPrefix === EVENT_SK_PREFIX ? EVENT_SK_PREFIX : ''}${q.toId ?? 'evt_~'}`;
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: index,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
      ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
      ExpressionAttributeValues: { ':pk': pkValue, ':lower': lower, ':upper': upper },
    },
    q,
    // Bound to the type and the window too: a cursor only resumes the query that issued it.
    { owner: tenantId, list: `events:${type ?? '*'}:${q.fromId ?? ''}:${q.toId ?? ''}` },
    index ? ['pk', 'sk', pkName, skName] : ['pk', 'sk'],
  );
  return { ...page, items: page.items.map((item) => eventFromItem(item)) };
}

/** Events written before they were deflated hold the JSON text itself (they expire within 30 days). */
const eventText = (stored: unknown): string =>
  stored instanceof Uint8Array ? inflateRawSync(stored).toString('utf8') : String(stored);

export const eventFromItem = (item: Record<string, unknown>): EventEnvelope =>
  inOrder<EventEnvelope>(JSON.parse(eventText(item.event)) as Record<string, unknown>, ENVELOPE_FIELDS);
