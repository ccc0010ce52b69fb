/** Opening hours as the dashboard writes them: `09:00–12:00, 13:00–17:00`, empty for closed. */

export interface Hours {
  start: string;
  end: string;
}

export const WEEKDAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;
export type Weekday = (typeof WEEKDAYS)[number][0];

const TIME = /^(\d{1,2})(?::?(\d{2}))?$/;

/** `9`, `9:30`, `0930` and `09:30` are all 09:30; undefined when it is no time of day. */
function clockTime(text: string): string | undefined {
  const match = TIME.exec(text.trim());
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) return undefined;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Hours typed as `09:00–12:00, 13:00–17:00` (any dash, or "to"); an error in words when they cannot be read. */
export function parseHours(text: string): { hours: Hours[] } | { error: string } {
  if (/^\s*closed\s*$/i.test(text)) return { hours: [] };
  const parts = text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const hours: Hours[] = [];
  for (const part of parts) {
    const [from, to, ...rest] = part.split(/\s*(?:[-\u2010-\u2015]|\bto\b)\s*/);
    const start = clockTime(from ?? '');
    const end = clockTime(to ?? '');
    if (!start || !end || rest.length > 0) return { error: `"${part}" is not a span of time like 09:00–17:00.` };
    if (end <= start)
      return {
        error:
          Number(end.slice(0, 2)) < 12 && Number(start.slice(0, 2)) >= 12
            ? `${start}–${end} runs past midnight: end this day at 24:00 and give the next day 00:00–${end}.`
            : `${start}–${end} ends before it starts: write times on the 24-hour clock (17:00, not 5).`,
      };
    hours.push({ start, end });
  }
  return { hours };
}

export const formatHours = (hours: readonly Hours[]): string => hours.map((h) => `${h.start}\u2013${h.end}`).join(', ');

/** A week in one line: days with the same hours grouped (`Mon–Fri 09:00–17:00 · Sat 10:00–14:00`). */
export function summarizeWeek(week: Record<Weekday, readonly Hours[]>): string {
  const groups: { from: number; to: number; text: string }[] = [];
  WEEKDAYS.forEach(([day], i) => {
    const text = formatHours(week[day]);
    const last = groups.at(-1);
    if (last && last.text === text && last.to === i - 1) last.to = i;
    else groups.push({ from: i, to: i, text });
  });
  const short = (i: number) => WEEKDAYS[i]?.[1].slice(0, 3) ?? '';
  const open = groups.filter((g) => g.text !== '');
  if (open.length === 0) return 'Closed every day';
  return open
    .map((g) => `${g.from === g.to ? short(g.from) : `${short(g.from)}\u2013${short(g.to)}`} ${g.text}`)
    .join(' \u00b7 ');
}

/** The time a resource keeps free around each booking (its schedule's buffers). */
export interface Buffers {
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

export const hasBuffers = (b: Buffers) => b.buffer_before_minutes > 0 || b.buffer_after_minutes > 0;

/** "10 minutes before and 15 after each booking"; "no time" without buffers. */
export function buffersText(b: Buffers): string {
  if (!hasBuffers(b)) return 'no time';
  const before = b.buffer_before_minutes ? `${b.buffer_before_minutes} minutes before` : '';
  const after = b.buffer_after_minutes ? `${b.buffer_after_minutes}${before ? '' : ' minutes'} after` : '';
  return `${[before, after].filter(Boolean).join(' and ')} each booking`;
}
