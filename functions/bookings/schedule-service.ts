// Public: schedules, for the features that read opening hours.
import { DomainError } from '../platform/domain-error';
import {
  normalizedHours,
  sortedHours,
  sortedOverrides,
  type DateOverride,
  type OpeningHours,
  type Schedule,
  type Weekday,
} from './schedule';
import { everySchedule, putNewSchedule, updateSchedule } from './schedule-store';

export interface ScheduleInput {
  resource_id: string;
  timezone: string;
  weekly_hours: Partial<Record<Weekday, OpeningHours[]>>;
  date_overrides?: DateOverride[];
  buffer_before_minutes?: number;
  buffer_after_minutes?: number;
}

/** A resource's first schedule; 409 `schedule_exists` when it has one (change it with PATCH). */
export async function createSchedule(tenantId: string, input: ScheduleInput, now: Date): Promise<Schedule> {
  const at = now.toISOString();
  const schedule: Schedule = {
    resource_id: input.resource_id,
    tenant_id: tenantId,
    timezone: input.timezone,
    ...normalizedHours(input.weekly_hours, input.date_overrides ?? []),
    buffer_before_minutes: input.buffer_before_minutes ?? 0,
    buffer_after_minutes: input.buffer_after_minutes ?? 0,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  if (!(await putNewSchedule(schedule)))
    throw DomainError.conflict(
      'schedule_exists',
      `${input.resource_id} already has a schedule: change it with PATCH /schedules/${input.resource_id}.`,
    );
  return schedule;
}

/**
 * Changes what is sent: the zone, each weekday sent (the others keep their hours), the list of dates as a
 * whole, the buffers. One conditional write, no read. Bookings already made keep their buffers.
 */
export function changeSchedule(
  tenantId: string,
  resourceId: string,
  patch: Omit<Partial<ScheduleInput>, 'resource_id'>,
  expectedVersion: number | undefined,
  now: Date,
): Promise<Schedule> {
  const days = Object.entries(patch.weekly_hours ?? {}) as [Weekday, OpeningHours[] | undefined][];
  return updateSchedule(
    tenantId,
    resourceId,
    {
      timezone: patch.timezone,
      date_overrides: patch.date_overrides && sortedOverrides(patch.date_overrides),
      buffer_before_minutes: patch.buffer_before_minutes,
      buffer_after_minutes: patch.buffer_after_minutes,
    },
    days.flatMap(([day, hours]) => (hours ? [[day, sortedHours(hours)] as [Weekday, OpeningHours[]]] : [])),
    now,
    expectedVersion,
  );
}

/** The tenant's schedules, up to `most` (undefined when it has more): what other features read opening hours from. */
export const schedulesOf = (tenantId: string, most: number): Promise<Schedule[] | undefined> =>
  everySchedule(tenantId, most);
