/**
 * Wall-clock time in IANA time zones, from the runtime's own zone data (Intl): the offset a zone observes
 * at an instant, and the instant a zone's wall clock shows a time. Pure; no AWS imports.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than using it. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at `at`, read as if it were UTC (epoch ms). */
export function wallClockAt(timeZone: string, at: Date): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** Minutes east of UTC that `timeZone` observes at `at`. */
export function zoneOffsetMinutes(timeZone: string, at: Date): number {
  return Math.round((wallClockAt(timeZone, at) - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant (epoch ms) at which `timeZone`'s wall clock shows `wall` (a wall-clock time written as if
 * it were UTC, epoch ms). Zones change offset at most once a day, so the offsets a day before and a day
 * after are the only candidates. A time shown twice (as clocks fall back) is its first showing; a time the
 * clocks skip (02:30 as they spring forward) is the instant they jump, so hours that start or end in the
 * gap start or end with it.
 */
export function instantOfWallClock(timeZone: string, wall: number): number {
  const DAY_MS = 86_400_000;
  const offsetBefore = zoneOffsetMinutes(timeZone, new Date(wall - DAY_MS));
  const before = wall - offsetBefore * 60_000;
  const after = wall - zoneOffsetMinutes(timeZone, new Date(wall + DAY_MS)) * 60_000;
  const shows = (instant: number) => wallClockAt(timeZone, new Date(instant)) === wall;
  const candidates = [before, after].filter(shows);
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped: the jump lies between the two readings; find it to the minute (offsets change on the minute).
  let [low, high] = [Math.min(before, after), Math.max(before, after)];
  while (high - low > 60_000) {
    const mid = low + Math.floor((high - low) / 120_000) * 60_000;
    if (zoneOffsetMinutes(timeZone, new Date(mid)) === offsetBefore) low = mid;
    else high = mid;
  }
  return high;
}

/** The calendar date (`YYYY-MM-DD`) `timeZone` shows at `at`. */
export const zonedDate = (timeZone: string, at: Date): string =>
  new Date(wallClockAt(timeZone, at)).toISOString().slice(0, 10);

/** The clock time (`HH:MM`) `timeZone` shows at `at`. */
export const zonedClock = (timeZone: string, at: Date): string =>
  new Date(wallClockAt(timeZone, at)).toISOString().slice(11, 16);
