import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import {
  calendarDateInRange,
  isValidTimezone,
  nonEmptyPatch,
  timezone as timezoneSchema,
} from '../platform/validation';
import { MAX_BUFFER_MINUTES } from './booking';
import {
  CLOCK_TIME,
  MAX_DATE_OVERRIDES,
  MAX_HOURS_PER_DAY,
  WEEKDAYS,
  hoursAreDisjoint,
  hoursEndAfterStart,
  isCalendarDate,
  type OpeningHours,
  type Weekday,
} from './schedule';
import { resourceId } from './schemas';

/** Request schemas of the schedule routes (apart from the bookings', so booking handlers do not carry them). */

const timezone = timezoneSchema();

const clockTime = z.string().check(z.regex(CLOCK_TIME, 'must be a time of day, HH:MM from 00:00 to 24:00'));

const openingHours = z
  .strictObject({ start: clockTime, end: clockTime })
  .check(z.refine(hoursEndAfterStart, { message: 'must be after `start`', path: ['end'] }));

const dayHours = z.array(openingHours).check(
  z.maxLength(MAX_HOURS_PER_DAY),
  z.refine((hours: OpeningHours[]) => hoursAreDisjoint(hours), 'the hours of one day must not overlap'),
);

const weeklyHours = z
  .strictObject(
    Object.fromEntries(WEEKDAYS.map((day) => [day, z.optional(dayHours)])) as Record<
      Weekday,
      z.ZodMiniOptional<typeof dayHours>
    >,
  )
  .check(
    z.meta({
      description:
        'Hours for each day of the week (`mon` to `sun`), in order or not; `[]` is closed. A day left out is closed ' +
        'when a schedule is created, and keeps its hours when one is changed. ' +
        '`24:00` ends a day, so `22:00`\u2013`24:00` and the next day\u2019s `00:00`\u2013`02:00` are one stretch.',
    }),
  );

const calendarDate = z
  .string()
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD'),
    z.refine(isCalendarDate, 'must be a day of the calendar'),
    calendarDateInRange(),
    z.meta({ format: 'date' }),
  );

const dateOverrides = z.array(z.strictObject({ date: calendarDate, hours: dayHours })).check(
  z.maxLength(MAX_DATE_OVERRIDES),
  z.refine(
    (overrides: { date: string }[]) => new Set(overrides.map((o) => o.date)).size === overrides.length,
    'each date at most once',
  ),
  z.meta({
    description:
      `Dates whose hours differ from their weekday\u2019s (a holiday: \`hours: []\`), in the schedule\u2019s time zone; ` +
      `at most ${MAX_DATE_OVERRIDES}. The whole list is replaced when sent.`,
  }),
);

/** A schedule's zone is stored as the zone database spells it (`europe/berlin` is Europe/Berlin). */
const canonicalZone = z.overwrite((tz: string) =>
  isValidTimezone(tz) ? new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone : tz,
);
const scheduleZone = timezone.check(canonicalZone);

const bufferMinutes = (side: 'before' | 'after') =>
  z.int().check(
    z.gte(0),
    z.lte(MAX_BUFFER_MINUTES),
    z.meta({
      description:
        `Minutes the resource is kept free ${side} each booking (0 to ${MAX_BUFFER_MINUTES}; default 0), for ` +
        `${side === 'before' ? 'preparation' : 'clearing up'}. A booking takes the buffers in force when it ` +
        'takes or moves its slot, and keeps them.',
    }),
  );

export const CreateScheduleBody = z.strictObject({
  resource_id: resourceId.check(z.meta({ description: 'The resource these are the opening hours of.' })),
  timezone: scheduleZone.check(z.meta({ description: 'The zone the hours are wall-clock times in.' })),
  weekly_hours: weeklyHours,
  date_overrides: z.optional(dateOverrides),
  buffer_before_minutes: z.optional(bufferMinutes('before')),
  buffer_after_minutes: z.optional(bufferMinutes('after')),
});

export const UpdateScheduleBody = nonEmptyPatch(
  z.strictObject({
    timezone: z.optional(scheduleZone),
    weekly_hours: z.optional(weeklyHours),
    date_overrides: z.optional(dateOverrides),
    buffer_before_minutes: z.optional(bufferMinutes('before')),
    buffer_after_minutes: z.optional(bufferMinutes('after')),
  }),
);

export const ListSchedulesQuery = z.strictObject({ ...pageQuery });

/** The resource a schedule path names, when it is one a schedule can have (any other has none: 404). */
export const resourceIdOf = (params: Record<string, string>): string | undefined => {
  const parsed = resourceId.safeParse(params.resource_id ?? '');
  return parsed.success ? parsed.data : undefined;
};
