import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, queryAll, refusedItem, updateVersioned } from '../platform/db';
import { tableName } from '../platform/config';
import { DomainError } from '../platform/domain-error';
import { inOrder } from '../platform/fields';
import { tenantPk } from '../platform/keys';
import { queryPage } from '../platform/pagination';
import { SCHEDULE_FIELDS, normalizedHours, type OpeningHours, type Schedule, type Weekday } from './schedule';

/**
 * The only code that knows how schedules are keyed: one item per resource,
 *   pk TENANT#<t>  sk SCHED#<resource id>
 * read by a booking of the resource in one Get, listed A to Z by resource in one Query.
 */
const scheduleKey = (tenantId: string, resourceId: string) => ({ pk: tenantPk(tenantId), sk: `SCHED#${resourceId}` });

/** The item as the API answers it: its fields, and its weekdays, in their order (a map's own order is not kept). */
function scheduleFromItem(item: Record<string, unknown>): Schedule {
  const schedule = inOrder<Schedule>(item, SCHEDULE_FIELDS);
  return {
    ...schedule,
    ...normalizedHours(schedule.weekly_hours, schedule.date_overrides),
    // Schedules stored before buffers existed have none.
    buffer_before_minutes: schedule.buffer_before_minutes ?? 0,
    buffer_after_minutes: schedule.buffer_after_minutes ?? 0,
  };
}

export async function getSchedule(tenantId: string, resourceId: string): Promise<Schedule | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName('main'), Key: scheduleKey(tenantId, resourceId), ConsistentRead: true }),
  );
  return out.Item ? scheduleFromItem(out.Item) : undefined;
}

/** Stores a new schedule; false when the resource already has one. */
export async function putNewSchedule(schedule: Schedule): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName('main'),
        Item: { ...scheduleKey(schedule.tenant_id, schedule.resource_id), ...schedule },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Replaces the fields given and the hours of the weekdays given, in one conditional update (the version
 * read, when If-Match named one).
 */
export async function updateSchedule(
  tenantId: string,
  resourceId: string,
  changes: Partial<Pick<Schedule, 'timezone' | 'date_overrides' | 'buffer_before_minutes' | 'buffer_after_minutes'>>,
  weekdays: [Weekday, OpeningHours[]][],
  now: Date,
  expectedVersion: number | undefined,
): Promise<Schedule> {
  const item = await updateVersioned(tableName('main'), scheduleKey(tenantId, resourceId), changes, {
    now: now.toISOString(),
    expectedVersion,
    what: 'The schedule',
    nested: weekdays.map(([day, hours]) => [['weekly_hours', day], hours]),
  });
  return scheduleFromItem(item);
}

/** Deletes a schedule (the version read, when If-Match named one): the resource is open at all times again. */
export async function deleteSchedule(tenantId: string, resourceId: string, expectedVersion: number | undefined) {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName('main'),
        Key: scheduleKey(tenantId, resourceId),
        ConditionExpression:
          expectedVersion === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: expectedVersion === undefined ? undefined : { ':v': expectedVersion },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    throw refusedItem(error) ? DomainError.versionMismatch() : DomainError.notFound('The schedule');
  }
}

/**
 * Every schedule of the tenant (one Query, more past 1 MB), or undefined when there are more than `most`:
 * a business's opening hours are the union of all of them, so a part would say closed where it is open.
 */
export async function everySchedule(tenantId: string, most: number): Promise<Schedule[] | undefined> {
  const items = await queryAll(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': 'SCHED#' },
    },
    most,
  );
  return items?.map(scheduleFromItem);
}

/** A page of the tenant's schedules, A to Z by resource: one Query. */
export async function listSchedules(
  tenantId: string,
  request: { limit: number; cursor?: string },
): Promise<{ items: Schedule[]; hasMore: boolean; nextCursor: string | null }> {
  const page = await queryPage(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': tenantPk(tenantId), ':prefix': 'SCHED#' },
      ScanIndexForward: true,
    },
    request,
    { owner: tenantId, list: 'schedules' },
    ['pk', 'sk'],
  );
  return { ...page, items: page.items.map(scheduleFromItem) };
}
