import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  conditionalWrite,
  db,
  eachInParallel,
  getMany,
  transactionRefusedItem,
  queryAll,
  retryConflicts,
  transactionConditionFailed,
  transactionConflicted,
  type TransactItem,
} from '../platform/db';
import { tableName } from '../platform/config';
import { DomainError } from '../platform/domain-error';
import { UpdateBuilder } from '../platform/expressions';
import { tenantPk } from '../platform/keys';
import { queryPage } from '../platform/pagination';
import { CUSTOMER_REF_FIELDS, inOrder } from '../platform/fields';
import {
  BOOKING_FIELDS,
  hourOf,
  SLOT_LIFETIME_MS,
  firstClash,
  heldTime,
  isActive,
  slotClaims,
  slotIsDead,
  type Booking,
  type BookingStatus,
  type Holder,
  type Interval,
  type SlotClaim,
  type SlotRole,
} from './booking';

/**
 * The only code that knows how bookings are keyed.
 *   pk TENANT#<t>  sk BKG#<id>                    the booking
 *   pk TENANT#<t>  sk SLOT#<resource>#H#<hour>    an hour of a resource: `full` {id, start_at, end_at},
 *                                                 `partial` (set of booking ids) + `p_<id>` intervals
 *   pk TENANT#<t>  sk SLOT#<resource>#Q#<quarter> a quarter of an hour: `head`, `tail` {id, start_at,
 *                                                 end_at}, `i_<id>` inner intervals + inner_version,
 *                                                 inner_first, inner_last
 * Lists by start time (gsiN sk = `<start_at>#<id>`): gsi1 all | gsi2 status | gsi3 customer | gsi5 status+customer
 * A write that takes, moves or frees a slot updates the slot items it touches (booking.ts slotClaims), in
 * the booking's transaction, each conditional on that bucket's own fields: disjoint bookings never make
 * each other's conditions fail, and two overlapping ones can never both commit.
 */
export const bookingKey = (tenantId: string, id: string) => ({ pk: tenantPk(tenantId), sk: `BKG#${id}` });
const slotKey = (tenantId: string, resourceId: string, claim: Pick<SlotClaim, 'bucket' | 'start'>) => ({
  pk: tenantPk(tenantId),
  sk: `SLOT#${resourceId}#${claim.bucket === 'hour' ? 'H' : 'Q'}#${claim.start}`,
});
const listPk = (tenantId: string, ...parts: string[]) => [`${tenantPk(tenantId)}#BKG`, ...parts].join('#');

function indexes(b: Booking) {
  const sk = `${b.start_at}#${b.id}`;
  return {
    gsi1pk: listPk(b.tenant_id),
    gsi1sk: sk,
    gsi2pk: listPk(b.tenant_id, 'status', b.status),
    gsi2sk: sk,
    gsi3pk: listPk(b.tenant_id, 'customer', b.customer.id),
    gsi3sk: sk,
    gsi5pk: listPk(b.tenant_id, 'status', b.status, 'customer', b.customer.id),
    gsi5sk: sk,
  };
}

export function bookingFromItem(item: Record<string, unknown>): Booking {
  const b = inOrder<Booking>(item, BOOKING_FIELDS);
  return {
    ...b,
    customer: inOrder(b.customer as unknown as Record<string, unknown>, CUSTOMER_REF_FIELDS),
    // Bookings stored before buffers existed hold their own time.
    buffer_before_minutes: b.buffer_before_minutes ?? 0,
    buffer_after_minutes: b.buffer_after_minutes ?? 0,
  };
}

export async function getBooking(tenantId: string, id: string): Promise<Booking | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: bookingKey(tenantId, id), ConsistentRead: true }),
  );
  return out.Item ? bookingFromItem(out.Item) : undefined;
}

/**
 * Rewrites the copy of a customer that each of their bookings carries, where it differs: the customer's
 * list (gsi3), then a conditional update each, moving the booking's version but not its `updated_at`.
 */
export async function refreshCustomerCopies(tenantId: string, customer: Booking['customer']): Promise<void> {
  const items = await queryAll({
    TableName: tableName('main'),
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': listPk(tenantId, 'customer', customer.id) },
  });
  const stale = items.map(bookingFromItem).filter((b) => JSON.stringify(b.customer) !== JSON.stringify(customer));
  await eachInParallel(stale, 10, (b) =>
    conditionalWrite(() =>
      retryConflicts(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName('main'),
            Key: bookingKey(tenantId, b.id),
            UpdateExpression: 'SET customer = :cus, version = version + :one',
            ConditionExpression: 'attribute_exists(pk) AND customer.id = :id',
            ExpressionAttributeValues: { ':cus': customer, ':id': customer.id, ':one': 1 },
          }),
        ),
      ),
    ),
  );
}

/** A concurrent write won: to the booking itself (If-Match territory) or to a slot (retry). */
export class BookingChanged extends Error {
  constructor(readonly what: 'booking' | 'schedule') {
    super(`${what} changed concurrently`);
    this.name = 'BookingChanged';
  }
}

/** One bucket touched by a write: the role the booking gives up there and the one it takes. */
interface SlotOp {
  key: { pk: string; sk: string };
  claim: SlotClaim;
  old?: SlotRole;
  next?: SlotRole;
}

/** Every interval a slot item holds. */
function holdersOf(item: Record<string, unknown>): Holder[] {
  return Object.entries(item)
    .filter(([k]) => k === 'full' || k === 'head' || k === 'tail' || k.startsWith('p_') || k.startsWith('i_'))
    .map(([, v]) => v as Holder);
}

/**
 * The conditional update of one slot item. Conditions only look at the fields this claim can clash
 * with, and ignore the booking's own entries (a reschedule within a bucket). Inner intervals of a quarter
 * are the one case compared as a set: the caller read the item (`read`), and the update is conditional on
 * its `inner_version`.
 */
function slotUpdate(op: SlotOp, self: Holder, ttl: number, read: Record<string, unknown> | undefined): TransactItem {
  const x = new UpdateBuilder().set('ttl', ttl);
  const field = (name: string, sub: string) => `${x.name(name)}.${x.name(sub)}`;
  const free = (f: string) => `(attribute_not_exists(${x.name(f)}) OR ${field(f, 'id')} = ${x.value(self.id)})`;
  const endsBy = (f: string, at: string) =>
    `(attribute_not_exists(${x.name(f)}) OR ${field(f, 'id')} = ${x.value(self.id)} OR ${field(f, 'end_at')} <= ${x.value(at)})`;
  const startsFrom = (f: string, at: string) =>
    `(attribute_not_exists(${x.name(f)}) OR ${field(f, 'id')} = ${x.value(self.id)} OR ${field(f, 'start_at')} >= ${x.value(at)})`;
  const take = (f: string) => x.set(f, self);
  const give = (f: string) => {
    x.remove(f);
    if (f === 'full' || f === 'head' || f === 'tail') x.when(free(f));
  };
  if (op.claim.bucket === 'hour') {
    const mine = `p_${self.id}`;
    if (op.old === 'full' && op.next !== 'full') give('full');
    if (op.old === 'partial' && op.next !== 'partial') {
      give(mine);
      x.delete('partial', new Set([self.id]));
    }
    if (op.next === 'full') {
      take('full');
      const partial = x.name('partial');
      x.when(free('full')).when(
        `(attribute_not_exists(${partial}) OR (size(${partial}) = ${x.value(1)} AND contains(${partial}, ${x.value(self.id)})))`,
      );
    }
    if (op.next === 'partial') {
      take(mine);
      x.add('partial', new Set([self.id]));
      x.when(free('full'));
    }
  } else {
    const mine = `i_${self.id}`;
    if (op.old && op.old !== op.next) give(op.old === 'inner' ? mine : op.old);
    if (op.next === 'head') x.when(free('head')).when(startsFrom('tail', self.end_at));
    if (op.next === 'tail') x.when(free('tail')).when(endsBy('head', self.start_at));
    if (op.next === 'inner') x.when(endsBy('head', self.start_at)).when(startsFrom('tail', self.end_at));
    if (op.next) take(op.next === 'inner' ? mine : op.next);
    if (read) {
      // Inner intervals are pinned by the version read: recompute their bounds without this booking's.
      const version = Number(read.inner_version ?? 0);
      const inners = Object.entries(read)
        .filter(([k]) => k.startsWith('i_') && k !== mine)
        .map(([, v]) => v as Holder)
        .concat(op.next === 'inner' ? [self] : []);
      const iv = x.name('inner_version');
      x.when(version === 0 ? `attribute_not_exists(${iv})` : `${iv} = ${x.value(version)}`);
      x.set('inner_version', version + 1);
      if (inners.length > 0) {
        x.set('inner_first', inners.map((i) => i.start_at).sort()[0]);
        x.set(
          'inner_last',
          inners
            .map((i) => i.end_at)
            .sort()
            .reverse()[0],
        );
      } else {
        x.remove('inner_first').remove('inner_last');
      }
    } else {
      // Without inner intervals of its own here, a claim checks them by their bounds alone.
      if (op.next === 'head')
        x.when(
          `(attribute_not_exists(${x.name('inner_first')}) OR ${x.name('inner_first')} >= ${x.value(self.end_at)})`,
        );
      if (op.next === 'tail')
        x.when(
          `(attribute_not_exists(${x.name('inner_last')}) OR ${x.name('inner_last')} <= ${x.value(self.start_at)})`,
        );
    }
  }
  return {
    Update: { TableName: tableName('main'), Key: op.key, ...x.build(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
  };
}

/** The slot items a write touches: the buckets given up and the ones taken, merged per item. */
function slotOps(tenantId: string, was: HeldSlot | undefined, will: HeldSlot | undefined, now: Date): SlotOp[] {
  const ops = new Map<string, SlotOp>();
  const touch = (slot: HeldSlot, claim: SlotClaim, side: 'old' | 'next') => {
    const key = slotKey(tenantId, slot.resource, claim);
    const op = ops.get(key.sk) ?? { key, claim };
    op[side] = claim.role;
    ops.set(key.sk, op);
  };
  // Buckets long past are never claimed again: nothing to give back there.
  if (was) for (const claim of slotClaims(was)) if (!slotIsDead(claim, now)) touch(was, claim, 'old');
  if (will) for (const claim of slotClaims(will)) touch(will, claim, 'next');
  return [...ops.values()];
}

/** The time a booking holds on its resource (with its buffers), and its own time. */
interface HeldSlot extends Interval {
  resource: string;
  booked: Interval;
}

const held = (b: Booking | undefined): HeldSlot | undefined =>
  b && b.resource_id && isActive(b.status)
    ? { resource: b.resource_id, ...heldTime(b), booked: { start_at: b.start_at, end_at: b.end_at } }
    : undefined;

const sameSlot = (a: HeldSlot, b: HeldSlot) =>
  a.resource === b.resource &&
  a.start_at === b.start_at &&
  a.end_at === b.end_at &&
  a.booked.start_at === b.booked.start_at &&
  a.booked.end_at === b.booked.end_at;

/**
 * Saves a new version of a booking with its events, and keeps the resource's slot items in step: a slot
 * is taken when a booking becomes active, moves or changes resource, and is freed when it ends.
 * Throws booking_conflict on overlap and BookingChanged when a concurrent write won (retry).
 */
export async function saveBooking(
  before: Booking | undefined,
  after: Booking,
  extra: TransactItem[],
  now: Date,
): Promise<void> {
  const tenantId = after.tenant_id;
  const was = held(before);
  const will = held(after);
  const ops = (was && will && sameSlot(was, will)) || (!was && !will) ? [] : slotOps(tenantId, was, will, now);
  // Slot items keep the booking's own time only when its buffers widen it, so the conflict can name it.
  const buffered = will && (will.start_at !== will.booked.start_at || will.end_at !== will.booked.end_at);
  const self: Holder = {
    id: after.id,
    start_at: will?.start_at ?? after.start_at,
    end_at: will?.end_at ?? after.end_at,
    ...(buffered ? { booked: will.booked } : {}),
  };
  const pinned = ops.filter((op) => op.old === 'inner' || op.next === 'inner');
  const reads = pinned.length
    ? await getMany(
        tableName('main'),
        pinned.map((op) => op.key),
      )
    : [];
  const readOf = new Map(pinned.map((op, i) => [op.key.sk, reads[i] ?? {}]));
  const clash = (holders: Holder[]) => (will ? firstClash(holders, will, after.id) : undefined);
  for (const op of pinned) {
    const found = op.next ? clash(holdersOf(readOf.get(op.key.sk) ?? {})) : undefined;
    if (found && will) throw bookingConflict(will, found);
  }
  const ttl = (claim: SlotClaim) => Math.floor((Date.parse(claim.end) + SLOT_LIFETIME_MS) / 1000) + 86_400;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...bookingKey(tenantId, after.id), ...indexes(after), ...after },
        ConditionExpression: before ? '#version = :version' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: before ? { '#version': 'version' } : undefined,
        ExpressionAttributeValues: before ? { ':version': before.version } : undefined,
      },
    },
    ...ops.map((op) => slotUpdate(op, self, ttl(op.claim), readOf.get(op.key.sk))),
    ...extra,
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (transactionConditionFailed(error, [0])) throw new BookingChanged('booking');
    for (const [i, op] of ops.entries()) {
      const refused = op.next ? transactionRefusedItem(error, i + 1) : undefined;
      const found = refused ? clash(holdersOf(refused)) : undefined;
      if (found && will) throw bookingConflict(will, found);
    }
    if (transactionConditionFailed(error) || transactionConflicted(error)) throw new BookingChanged('schedule');
    throw error;
  }
}

/** The booking in the way, at its own time; with buffers, also the times each holds the resource for. */
function bookingConflict(will: HeldSlot, found: Holder) {
  const other = found.booked ?? found;
  const buffered = found.booked || will.start_at !== will.booked.start_at || will.end_at !== will.booked.end_at;
  return DomainError.conflict(
    'booking_conflict',
    `Resource ${will.resource} is already booked from ${other.start_at} to ${other.end_at} (${found.id}).` +
      (buffered
        ? ` With the time kept free around bookings, that booking holds it from ${found.start_at} to ` +
          `${found.end_at}, and this one would need it from ${will.start_at} to ${will.end_at}.`
        : ''),
    {
      conflicting_booking: { id: found.id, resource_id: will.resource, start_at: other.start_at, end_at: other.end_at },
    },
  );
}

export interface BookingFilters {
  status?: BookingStatus;
  customer_id?: string;
  from?: string;
  to?: string;
}

/** One Query per page, latest start first, with from/to as a key range. */
export async function listBookings(tenantId: string, f: BookingFilters, request: { limit: number; cursor?: string }) {
  const [n, pk] =
    f.status && f.customer_id
      ? [5, listPk(tenantId, 'status', f.status, 'customer', f.customer_id)]
      : f.status
        ? [2, listPk(tenantId, 'status', f.status)]
        : f.customer_id
          ? [3, listPk(tenantId, 'customer', f.customer_id)]
          : [1, listPk(tenantId)];
  const page = await queryPage(
    {
      TableName: tableName('main'),
      IndexName: `gsi${n}`,
      KeyConditionExpression: `gsi${n}pk = :pk AND gsi${n}sk BETWEEN :from AND :to`,
      ExpressionAttributeValues: { ':pk': pk, ':from': f.from ?? '0', ':to': `${f.to ?? '9'}~` },
    },
    request,
    { owner: tenantId, list: `bookings:${pk}:${f.from ?? ''}:${f.to ?? ''}` },
    ['pk', 'sk', `gsi${n}pk`, `gsi${n}sk`],
  );
  return { ...page, items: page.items.map(bookingFromItem) };
}

/**
 * What holds a resource's time in the window: the hour items it overlaps, by a strongly consistent Query
 * (paged past 1 MB; an hour's `full` and `p_<id>` entries name every active booking touching it, so
 * quarters are not read). A booking spanning several hours is in each of them, once per id in the answer.
 * Hours before the schedule horizon (booking.ts answerableWindow) may hold stale entries: callers read them
 * only for the buffers' reach around a window that starts at the horizon or later.
 */
export async function heldIntervals(tenantId: string, resourceId: string, window: Interval): Promise<Holder[]> {
  const items = await queryAll({
    TableName: tableName('main'),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: {
      ':pk': tenantPk(tenantId),
      ':first': slotKey(tenantId, resourceId, { bucket: 'hour', start: hourOf(window.start_at) }).sk,
      ':last': slotKey(tenantId, resourceId, { bucket: 'hour', start: window.end_at }).sk,
    },
    ConsistentRead: true,
  });
  const byId = new Map<string, Holder>();
  for (const item of items) for (const h of holdersOf(item)) byId.set(h.id, h);
  return [...byId.values()];
}

/** The customer's earliest booking that starts after `now` and is still on (pending or confirmed). */
export async function nextBookingFor(tenantId: string, customerId: string, now: Date): Promise<Booking | undefined> {
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < 5; page++) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName('main'),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk > :now',
        ExpressionAttributeValues: { ':pk': listPk(tenantId, 'customer', customerId), ':now': now.toISOString() },
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
