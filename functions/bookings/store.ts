import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, transactionConditionFailed } from '../platform/db';
import { tableName } from '../platform/config';
import { conflict } from '../platform/errors';
import { queryPage } from '../platform/pagination';
import type { TransactItem } from '../conversations/store';
import { CUSTOMER_REF_FIELDS, inOrder } from '../platform/fields';
import { BOOKING_FIELDS, SCHEDULE_HORIZON_MS, isActive, overlaps, type Booking, type BookingStatus, type Interval } from './booking';

/**
 * The only code that knows how bookings are keyed.
 *   pk TENANT#<t>  sk BKG#<id>             the booking
 *   pk TENANT#<t>  sk RESOURCE#<id>        the resource's schedule: active bookings' intervals + version
 * Lists by start time (gsiN sk = `<start_at>#<id>`): gsi1 all | gsi2 status | gsi3 customer | gsi5 status+customer
 * Every write that takes or changes a slot rewrites the schedule conditionally on the version it read,
 * in the same transaction as the booking: two overlapping bookings can never both commit.
 */
const tenantPk = (t: string) => `TENANT#${t}`;
export const bookingKey = (t: string, id: string) => ({ pk: tenantPk(t), sk: `BKG#${id}` });
const scheduleKey = (t: string, resourceId: string) => ({ pk: tenantPk(t), sk: `RESOURCE#${resourceId}` });
const listPk = (t: string, ...parts: string[]) => [`${tenantPk(t)}#BKG`, ...parts].join('#');

function indexes(b: Booking) {
  const sk = `${b.start_at}#${b.id}`;
  return {
    gsi1pk: listPk(b.tenant_id), gsi1sk: sk,
    gsi2pk: listPk(b.tenant_id, 'status', b.status), gsi2sk: sk,
    gsi3pk: listPk(b.tenant_id, 'customer', b.customer.id), gsi3sk: sk,
    gsi5pk: listPk(b.tenant_id, 'status', b.status, 'customer', b.customer.id), gsi5sk: sk,
  };
}

export function bookingFromItem(item: Record<string, unknown>): Booking {
  const b = inOrder<Booking>(item, BOOKING_FIELDS);
  return { ...b, customer: inOrder(b.customer as unknown as Record<string, unknown>, CUSTOMER_REF_FIELDS) };
}

export async function getBooking(t: string, id: string): Promise<Booking | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName('main'), Key: bookingKey(t, id), ConsistentRead: true }));
  return out.Item ? bookingFromItem(out.Item) : undefined;
}

interface Schedule {
  version: number;
  slots: Record<string, Interval>;
}

async function getSchedule(t: string, resourceId: string): Promise<Schedule> {
  const out = await db().send(new GetCommand({ TableName: tableName('main'), Key: scheduleKey(t, resourceId), ConsistentRead: true }));
  return { version: Number(out.Item?.version ?? 0), slots: (out.Item?.slots as Record<string, Interval>) ?? {} };
}

/** A concurrent write won: to the booking itself (If-Match territory) or to a resource schedule. */
export class BookingChanged extends Error {
  constructor(readonly what: 'booking' | 'schedule') {
    super(`${what} changed concurrently`);
    this.name = 'BookingChanged';
  }
}

/** A schedule rewrite: the booking's slot set (or removed), ended slots pruned, conditional on `version`. */
async function scheduleWrite(t: string, resourceId: string, bookingId: string, slot: Interval | null, now: Date): Promise<TransactItem> {
  const schedule = await getSchedule(t, resourceId);
  const pruneBefore = now.getTime() - SCHEDULE_HORIZON_MS;
  const slots = Object.fromEntries(Object.entries(schedule.slots).filter(([id, s]) => id !== bookingId && Date.parse(s.end_at) > pruneBefore));
  if (slot) {
    const clash = Object.entries(slots).find(([, s]) => overlaps(s, slot));
    if (clash) throw conflict('booking_conflict', `Resource ${resourceId} is already booked from ${clash[1].start_at} to ${clash[1].end_at}.`);
    slots[bookingId] = slot;
  }
  return {
    Put: {
      TableName: tableName('main'),
      Item: { ...scheduleKey(t, resourceId), version: schedule.version + 1, slots },
      ConditionExpression: schedule.version === 0 ? 'attribute_not_exists(pk)' : '#v = :v',
      ExpressionAttributeNames: schedule.version === 0 ? undefined : { '#v': 'version' },
      ExpressionAttributeValues: schedule.version === 0 ? undefined : { ':v': schedule.version },
    },
  };
}

/**
 * Saves a new version of a booking with its events, and keeps resource schedules in step: a slot is
 * taken when a booking becomes active, moves or changes resource, and is freed when it ends.
 * Throws 409 booking_conflict on overlap and BookingChanged when a concurrent write won (retry).
 */
export async function saveBooking(before: Booking | undefined, after: Booking, extra: TransactItem[], now: Date): Promise<void> {
  const t = after.tenant_id;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...bookingKey(t, after.id), ...indexes(after), ...after },
        ConditionExpression: before ? '#version = :version' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: before ? { '#version': 'version' } : undefined,
        ExpressionAttributeValues: before ? { ':version': before.version } : undefined,
      },
    },
  ];
  const held = (b: Booking | undefined) => (b && b.resource_id && isActive(b.status) ? { resource: b.resource_id, start_at: b.start_at, end_at: b.end_at } : undefined);
  const was = held(before);
  const will = held(after);
  if (will && (!was || was.resource !== will.resource || was.start_at !== will.start_at || was.end_at !== will.end_at)) {
    items.push(await scheduleWrite(t, will.resource, after.id, { start_at: will.start_at, end_at: will.end_at }, now));
  }
  if (was && (!will || was.resource !== will.resource)) items.push(await scheduleWrite(t, was.resource, after.id, null, now));
  items.push(...extra);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error, [0])) throw new BookingChanged('booking');
    if (transactionConditionFailed(error)) throw new BookingChanged('schedule');
    throw error;
  }
}

export interface BookingFilters {
  status?: BookingStatus;
  customer_id?: string;
  from?: string;
  to?: string;
}

/** One Query per page, latest start first, with from/to as a key range. */
export async function listBookings(t: string, f: BookingFilters, request: { limit: number; cursor?: string }) {
  const [n, pk] = f.status && f.customer_id
    ? [5, listPk(t, 'status', f.status, 'customer', f.customer_id)]
    : f.status
      ? [2, listPk(t, 'status', f.status)]
      : f.customer_id
        ? [3, listPk(t, 'customer', f.customer_id)]
        : [1, listPk(t)];
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: `gsi${n}`,
      KeyConditionExpression: `gsi${n}pk = :pk AND gsi${n}sk BETWEEN :from AND :to`,
      ExpressionAttributeValues: { ':pk': pk, ':from': f.from ?? '0', ':to': `${f.to ?? '9'}~` },
    },
    request,
    { owner: t, list: `bookings:${pk}:${f.from ?? ''}:${f.to ?? ''}` },
    ['pk', 'sk', `gsi${n}pk`, `gsi${n}sk`],
  );
  return { ...page, items: page.items.map(bookingFromItem) };
}

/** The customer's earliest booking that starts after `now` and is still on (pending or confirmed). */
export async function nextBookingFor(t: string, customerId: string, now: Date): Promise<Booking | undefined> {
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < 5; page++) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName('main'),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk > :now',
        ExpressionAttributeValues: { ':pk': listPk(t, 'customer', customerId), ':now': now.toISOString() },
        Limit: 20,
        ExclusiveStartKey: startKey,
      }),
    );
    const found = (out.Items ?? []).map(bookingFromItem).find((b) => isActive(b.status));
    if (found) return found;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return undefined;
  }
  return undefined;
}
