// Public: due reminders, for the business scheduler.
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, queryAll, type TransactItem } from '../platform/db';
import { tableName } from '../platform/config';
import { dueIndexKeys, dueItems } from '../platform/due-index';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { REMINDER_POLICY_FIELDS, defaultPolicy, type ReminderPolicy } from './reminder';

/**
 * The only code that knows how reminders are keyed:
 *   pk TENANT#<t>  sk REMPOLICY                                    the tenant's reminder policy
 *   pk TENANT#<t>  sk REM#<booking id>#<start_at>#<offset minutes>  one reminder of a booking at one start
 *                                                                  time; while pending, in the due index
 *                                                                  (REMDUE) by when it goes
 *   pk TENANT#<t>  sk REMTAP#<message id>                          a customer's tap, answered: written in the
 *                                                                  transaction of what the tap did, so a
 *                                                                  redelivered tap finds it and does nothing
 * A reminder is keyed by the start it reminds of, so a rescheduled booking gets new ones and the old ones
 * are dropped; its status moves pending → sent once, in the transaction that queues its message.
 */
const policyKey = (tenantId: string) => ({ pk: tenantPk(tenantId), sk: 'REMPOLICY' });
const tapKey = (tenantId: string, messageId: string) => ({ pk: tenantPk(tenantId), sk: `REMTAP#${messageId}` });
/** How long a tap's record is kept: far longer than any redelivery (SQS keeps a message at most 14 days). */
const TAP_RECORD_SECONDS = 30 * 86_400;
const reminderPrefix = (bookingId: string) => `REM#${bookingId}#`;
const reminderKey = (tenantId: string, r: Pick<Reminder, 'booking_id' | 'start_at' | 'offset_minutes'>) => ({
  pk: tenantPk(tenantId),
  sk: `${reminderPrefix(r.booking_id)}${r.start_at}#${String(r.offset_minutes).padStart(5, '0')}`,
});
export const REMINDER_DUE_KIND = 'REMDUE';

export interface Reminder {
  tenant_id: string;
  booking_id: string;
  start_at: string;
  offset_minutes: number;
  due_at: string;
  status: 'pending' | 'sent' | 'skipped';
}

export async function getPolicy(tenantId: string): Promise<ReminderPolicy> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: policyKey(tenantId), ConsistentRead: true }),
  );
  return out.Item ? inOrder<ReminderPolicy>(out.Item, REMINDER_POLICY_FIELDS) : defaultPolicy(tenantId);
}

export async function putPolicy(policy: ReminderPolicy): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName('main'), Item: { ...policyKey(policy.tenant_id), ...policy } }),
  );
}

const reminderOf = (item: Record<string, unknown>): Reminder => ({
  tenant_id: String(item.tenant_id),
  booking_id: String(item.booking_id),
  start_at: String(item.start_at),
  offset_minutes: Number(item.offset_minutes),
  due_at: String(item.due_at),
  status: item.status as Reminder['status'],
});

/** A booking's reminders, every start time's (one Query). */
export async function remindersOf(tenantId: string, bookingId: string): Promise<Reminder[]> {
  const items = await queryAll({
    TableName: tableName('main'),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':p': reminderPrefix(bookingId) },
    ConsistentRead: true,
  });
  return items.map(reminderOf);
}

/** A new pending reminder (nothing when it exists, whatever its status: a sent one is never sent again). */
export async function addReminder(r: Reminder): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new PutCommand({
        TableName: tableName('main'),
        Item: {
          ...reminderKey(r.tenant_id, r),
          ...dueIndexKeys(REMINDER_DUE_KIND, `${r.booking_id}#${r.start_at}#${r.offset_minutes}`, r.due_at),
          ...r,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Drops a reminder that has not gone (a sent one stays, as the record that it went). */
export async function dropPendingReminder(r: Reminder): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName('main'),
        Key: reminderKey(r.tenant_id, r),
        ConditionExpression: '#s = :pending',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    ),
  );
}

/** Pending reminders due at `now`, across tenants. */
export async function dueReminders(now: Date, limitPerShard: number): Promise<Reminder[]> {
  return (await dueItems(REMINDER_DUE_KIND, now, limitPerShard))
    .filter((item) => item.status === 'pending')
    .map(reminderOf);
}

/**
 * The reminder goes: pending → `status`, out of the due index, in one transaction with `writes` (its
 * message and event). False when it is no longer pending (another run sent or dropped it): then nothing
 * of `writes` happened either, so a reminder is sent exactly once.
 */
export async function settleReminder(
  r: Reminder,
  status: 'sent' | 'skipped',
  writes: TransactItem[],
  now: Date,
): Promise<boolean> {
  const update = {
    TableName: tableName('main'),
    Key: reminderKey(r.tenant_id, r),
    UpdateExpression: 'SET #s = :status, settled_at = :at REMOVE gsi5pk, gsi5sk',
    ConditionExpression: '#s = :pending',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':status': status, ':pending': 'pending', ':at': now.toISOString() },
  };
  return conditionalWrite(
    () => db().send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...writes] })),
    [0],
  );
}

/** Whether the tap carried by message `messageId` was answered already (a redelivery). */
export async function tapAnswered(tenantId: string, messageId: string): Promise<boolean> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: tapKey(tenantId, messageId), ConsistentRead: true }),
  );
  return out.Item !== undefined;
}

/**
 * The record that the tap in message `messageId` was answered, for the transaction of what it did: it
 * fails that transaction when another delivery of the same tap committed first.
 */
export function tapAnsweredPut(
  tenantId: string,
  tap: { message_id: string; booking_id: string; answer: string },
  now: Date,
): TransactItem {
  return {
    Put: {
      TableName: tableName('main'),
      Item: {
        ...tapKey(tenantId, tap.message_id),
        ...tap,
        answered_at: now.toISOString(),
        ttl: Math.floor(now.getTime() / 1000) + TAP_RECORD_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * A tap's record and its event alone, for an answer that changed no booking; false when another delivery
 * of the tap recorded it first (then nothing was written).
 */
export async function recordTapAnswer(items: TransactItem[]): Promise<boolean> {
  return conditionalWrite(() => db().send(new TransactWriteCommand({ TransactItems: items })), [0]);
}
