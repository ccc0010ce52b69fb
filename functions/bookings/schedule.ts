// Public: opening-hours rules (pure), which the assistant reads.
/**
 * A resource's opening hours (its schedule): hours for each day of the week and for particular dates,
 * as wall-clock times in the schedule's time zone. A resource with no schedule is open at all times.
 * Pure; no AWS imports.
 */
import { instantOfWallClock, wallClockAt, zonedClock, zonedDate } from '../platform/time-zones';
import { blockedFor, gapsWithin, mergedWithin, type Buffers, type Interval } from './booking';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A stretch of one day, `HH:MM` to `HH:MM`; `24:00` is the end of the day. */
export interface OpeningHours {
  start: string;
  end: string;
}

export interface DateOverride {
  /** `YYYY-MM-DD` in the schedule's time zone. */
  date: string;
  /** The hours that day instead of its weekday's; none: closed all day. */
  hours: OpeningHours[];
}

/** A resource's opening hours, and the buffers its bookings take (booking.ts Buffers). */
export interface Schedule extends Buffers {
  resource_id: string;
  tenant_id: string;
  timezone: string;
  weekly_hours: Record<Weekday, OpeningHours[]>;
  date_overrides: DateOverride[];
  created_at: string;
  updated_at: string;
  version: number;
}

export const SCHEDULE_FIELDS = [
  'resource_id',
  'tenant_id',
  'timezone',
  'weekly_hours',
  'date_overrides',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof Schedule)[];

/** `HH:MM` from 00:00 to 23:59, and 24:00 (the end of the day). */
export const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export const MAX_HOURS_PER_DAY = 10;
export const MAX_DATE_OVERRIDES = 200;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const byStart = (a: OpeningHours, b: OpeningHours) => minutesOf(a.start) - minutesOf(b.start);
const addDays = (date: string, days: number) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

/** Whether the hours end after they start (hours with a malformed time are refused for that instead). */
export const hoursEndAfterStart = (h: OpeningHours) =>
  !CLOCK_TIME.test(h.start) || !CLOCK_TIME.test(h.end) || h.end > h.start;

/** Whether no two of a day's well-formed hours overlap (one may end where the next starts). */
export function hoursAreDisjoint(hours: OpeningHours[]): boolean {
  if (!hours.every((h) => CLOCK_TIME.test(h.start) && CLOCK_TIME.test(h.end))) return true;
  const sorted = [...hours].sort(byStart);
  return sorted.every((h, i) => i === 0 || minutesOf(h.start) >= minutesOf(sorted[i - 1]?.end ?? '00:00'));
}

/** Whether `date` (`YYYY-MM-DD`) is a day of the calendar (not 2026-02-30). */
export const isCalendarDate = (date: string) => {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date;
};

/**
 * The schedule as stored and answered: every weekday present (a day not given is closed), each day's
 * hours in order, the overrides by date.
 */
export function normalizedHours(
  weekly: Partial<Record<Weekday, OpeningHours[]>>,
  overrides: DateOverride[],
): Pick<Schedule, 'weekly_hours' | 'date_overrides'> {
  return {
    weekly_hours: Object.fromEntries(
      WEEKDAYS.map((day) => [day, sortedHours(weekly[day])]),
    ) as Schedule['weekly_hours'],
    date_overrides: sortedOverrides(overrides),
  };
}

/** A day's hours in order. */
export const sortedHours = (hours: OpeningHours[] | undefined): OpeningHours[] =>
  [...(hours ?? [])].sort(byStart).map(({ start, end }) => ({ start, end }));

/** Overrides by date, each day's hours in order. */
export const sortedOverrides = (overrides: DateOverride[]): DateOverride[] =>
  [...overrides].sort((a, b) => (a.date < b.date ? -1 : 1)).map((o) => ({ date: o.date, hours: sortedHours(o.hours) }));

export const weekdayOf = (date: string): Weekday =>
  WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7] ?? 'mon';

/** The hours a schedule keeps on a date: its override if it has one, else its weekday's. */
export const hoursOn = (schedule: Pick<Schedule, 'weekly_hours' | 'date_overrides'>, date: string): OpeningHours[] =>
  schedule.date_overrides.find((o) => o.date === date)?.hours ?? schedule.weekly_hours[weekdayOf(date)];

/**
 * The most days openWithin looks at: an availability window's 31 and a day either side. A longer window
 * is a caller's mistake (requests are bounded long before), refused rather than walked day by day.
 */
export const MAX_OPEN_WITHIN_DAYS = 33;

/** The day a zone's calendar shows at an instant, as days since 1970-01-01 (a number: no year ever outgrows it). */
const zonedDayNumber = (tz: string, at: string) => Math.floor(wallClockAt(tz, new Date(at)) / DAY_MS);

/** When the resource is open within the window: merged intervals (a day open to 24:00 runs on into the next day's 00:00), in order. */
export function openWithin(
  schedule: Pick<Schedule, 'timezone' | 'weekly_hours' | 'date_overrides'>,
  window: Interval,
): Interval[] {
  const tz = schedule.timezone;
  // Zones are at most 14 hours from UTC: the local day before the window's start is the earliest that can reach into it.
  const first = zonedDayNumber(tz, window.start_at) - 1;
  const last = zonedDayNumber(tz, window.end_at);
  if (!(last - first < MAX_OPEN_WITHIN_DAYS))
    throw new RangeError(`openWithin covers at most ${MAX_OPEN_WITHIN_DAYS} days`);
  const open: Interval[] = [];
  for (let day = first; day <= last; day++) {
    const midnight = day * DAY_MS;
    const date = new Date(midnight).toISOString().slice(0, 10);
    for (const h of hoursOn(schedule, date)) {
      const at = (time: string) =>
        new Date(instantOfWallClock(tz, midnight + minutesOf(time) * MINUTE_MS)).toISOString();
      open.push({ start_at: at(h.start), end_at: at(h.end) });
    }
  }
  return mergedWithin(window, open);
}

const describeHours = (hours: OpeningHours[]) =>
  hours.length === 0 ? 'closed' : `open ${hours.map((h) => `${h.start}\u2013${h.end}`).join(', ')}`;

/**
 * Why an interval cannot be booked on the schedule, if it cannot: it must lie wholly in opening hours.
 * The reason names the hours of the day it is first closed on, in the schedule's time zone.
 */
export function outsideHoursProblem(schedule: Schedule, interval: Interval): string | null {
  const [closed] = gapsWithin(interval, openWithin(schedule, interval));
  if (!closed) return null;
  // For a booking across midnight, the day it is first closed on may be the second.
  const date = zonedDate(schedule.timezone, new Date(closed.start_at));
  return (
    `${schedule.resource_id} is not open for all of that time: on ${date} it is ` +
    `${describeHours(hoursOn(schedule, date))} (${schedule.timezone}).`
  );
}

/** A day of the week ahead: its date where the business is, and the hours it is open then. */
export interface OpenDay {
  date: string;
  hours: OpeningHours[];
}

/**
 * Days from `now`'s date in `timeZone`, each with the stretches `within` gives for it (midnight to
 * midnight there), as clock times there. A stretch that cannot be said that way (one running through the
 * hour a clock change repeats, in another zone than the schedule's) ends before it starts: see sayable.
 */
function daysAhead(now: Date, timeZone: string, count: number, within: (day: Interval) => Interval[]): OpenDay[] {
  const first = zonedDate(timeZone, now);
  const midnight = (date: string) =>
    new Date(instantOfWallClock(timeZone, Date.parse(`${date}T00:00:00Z`))).toISOString();
  return Array.from({ length: count }, (_, i) => {
    const date = addDays(first, i);
    const day = { start_at: midnight(date), end_at: midnight(addDays(date, 1)) };
    const clock = (at: string) => (at === day.end_at ? '24:00' : zonedClock(timeZone, new Date(at)));
    return { date, hours: within(day).map((o) => ({ start: clock(o.start_at), end: clock(o.end_at) })) };
  });
}

const sayable = (h: OpeningHours) => h.end > h.start;

/**
 * The business's hours on each of the seven days from `now`'s date in `timeZone`, as clock times there:
 * the union of the schedules given (it is open while any of its resources is), date overrides included.
 */
export function weekAhead(schedules: readonly Schedule[], now: Date, timeZone: string): OpenDay[] | undefined {
  const days = daysAhead(now, timeZone, 7, (day) =>
    mergedWithin(
      day,
      schedules.flatMap((s) => openWithin(s, day)),
    ),
  );
  // A week with a day said wrongly would be wrong: undefined instead.
  return days.every((d) => d.hours.every(sayable)) ? days : undefined;
}

/** A resource's schedule and the time its bookings hold (with their buffers) in the days looked at. */
export interface ResourceTime {
  schedule: Schedule;
  held: readonly Interval[];
}

const QUARTER_HOUR_MS = 15 * MINUTE_MS;

/** Free stretches shorter than this are not offered: nothing fits in them. */
export const SHORTEST_FREE_MS = 30 * MINUTE_MS;

/**
 * When the business can still take a booking in the seven days from `now`: on each day, the time from the
 * next quarter hour on that some resource is open and has free, with room for its buffers around a new
 * booking, in stretches of at least SHORTEST_FREE_MS on that resource; only the first `most` days that
 * have any. A stretch that cannot be said as clock times in `timeZone` is left out.
 */
export function freeDaysAhead(
  resources: readonly ResourceTime[],
  now: Date,
  timeZone: string,
  most: number,
): OpenDay[] {
  // From the next quarter hour: "free from 14:15", not "from 14:07".
  const from = Math.ceil(now.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const long = (f: Interval) => Date.parse(f.end_at) - Date.parse(f.start_at) >= SHORTEST_FREE_MS;
  return daysAhead(now, timeZone, 7, (day) => {
    const window = { start_at: new Date(Math.max(from, Date.parse(day.start_at))).toISOString(), end_at: day.end_at };
    if (Date.parse(window.end_at) <= Date.parse(window.start_at)) return [];
    // Long enough on one resource: two short ends of different resources that meet are no free time.
    const free = resources.flatMap(({ schedule, held }) => {
      const closed = gapsWithin(window, openWithin(schedule, window));
      return gapsWithin(window, mergedWithin(window, [...blockedFor(held, schedule), ...closed])).filter(long);
    });
    return mergedWithin(window, free);
  })
    .map((d) => ({ ...d, hours: d.hours.filter(sayable) }))
    .filter((d) => d.hours.length > 0)
    .slice(0, most);
}
