/**
 * The day and part of the day a customer asks about ("anything free this Saturday morning?",
 * "Samstagvormittag", "el sábado por la mañana"), and the free times that answer it. Pure, no AWS imports.
 */
import type { OpenDay } from '../bookings/schedule';
import { dateEntities } from './entities';
import type { Language } from './taxonomy';

export const DAY_PARTS = ['morning', 'afternoon', 'evening'] as const;
export type DayPart = (typeof DAY_PARTS)[number];

/** Each part of the day as clock times (`HH:MM`, end exclusive): what a customer means by it at a business. */
export const DAY_PART_HOURS: Record<DayPart, { start: string; end: string }> = {
  morning: { start: '00:00', end: '12:00' },
  afternoon: { start: '12:00', end: '17:00' },
  evening: { start: '17:00', end: '24:00' },
};

/**
 * The words for each part of the day, per language, as they stand alone or end a compound ("Samstagvormittag").
 * Spanish "mañana" alone means tomorrow and Portuguese "amanhã" too: only "por/de la mañana" and a "manhã"
 * not glued to an "a" mean the morning.
 */
const PART_WORDS: Record<Language, Record<DayPart, RegExp>> = {
  en: { morning: /\bmornings?\b/i, afternoon: /\bafternoons?\b/i, evening: /\b(?:evenings?|tonight)\b/i },
  es: {
    morning: /\b(?:por|de|en) la mañana\b/iu,
    afternoon: /\b(?:por|de|en) la tarde\b|\besta tarde\b/iu,
    evening: /\b(?:por|de|en) la noche\b|\besta noche\b/iu,
  },
  pt: {
    morning: /(?<![\p{L}])(?:de |pela |na |esta )?manhã(?![\p{L}])/iu,
    afternoon: /(?<![\p{L}])tarde(?![\p{L}])/iu,
    evening: /(?<![\p{L}])noite(?![\p{L}])/iu,
  },
  fr: {
    morning: /\bmatin(?:ée)?\b/iu,
    afternoon: /\baprès[- ]midi\b|\bapres[- ]midi\b/iu,
    evening: /\bsoir(?:ée)?\b/iu,
  },
  de: {
    morning: /(?:vormittags?|morgens|früh)(?![\p{L}])|(?<=tag)morgen(?![\p{L}])/iu,
    afternoon: /nachmittags?(?![\p{L}])/iu,
    evening: /abends?(?![\p{L}])/iu,
  },
};

/** German glues the weekday to the part of the day ("Samstagvormittag"): chrono reads them apart. */
const GERMAN_COMPOUND =
  /(montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)(vormittag|nachmittag|abend|morgen|mittag)/giu;
/** The phrases that name the part of the day, which chrono would otherwise read as "tomorrow" (es) or a date. */
const NOT_A_DAY: Partial<Record<Language, RegExp>> = {
  es: /\b(?:por|de|en) la (?:mañana|tarde|noche)\b/giu,
  pt: /(?<![\p{L}])(?:de |pela |na )?(?:manhã|tarde|noite)(?![\p{L}])/giu,
};

export interface AskedTime {
  /** `YYYY-MM-DD` in the business's zone. */
  date: string;
  part: DayPart | null;
}

/** The day (and part of it) the customer's message asks about, if it names a day; null when it names none. */
export async function askedTime(
  text: string,
  now: Date,
  timeZone: string,
  language: Language,
): Promise<AskedTime | null> {
  const words = PART_WORDS[language];
  const part = DAY_PARTS.find((p) => words[p].test(text)) ?? null;
  let dayText = language === 'de' ? text.replace(GERMAN_COMPOUND, '$1 $2') : text;
  const notADay = NOT_A_DAY[language];
  if (notADay) dayText = dayText.replace(notADay, ' ');
  const [day] = await dateEntities(dayText, now, timeZone, language);
  if (!day) return null;
  return { date: day.value.slice(0, 10), part };
}

/** The stretches of `hours` that fall within a part of the day (all of them without a part). */
export function withinPart(
  hours: readonly { start: string; end: string }[],
  part: DayPart | null,
): { start: string; end: string }[] {
  if (!part) return [...hours];
  const bounds = DAY_PART_HOURS[part];
  return hours
    .map((h) => ({
      start: h.start > bounds.start ? h.start : bounds.start,
      end: h.end < bounds.end ? h.end : bounds.end,
    }))
    .filter((h) => h.end > h.start);
}

/** What the business can offer for the time asked: free then, or closed or full then, and the nearest free days. */
export interface AskedAnswer {
  date: string;
  part: DayPart | null;
  /** `free`: `days` holds the asked day's free stretches; otherwise `days` holds the nearest free days. */
  state: 'free' | 'closed' | 'full';
  days: OpenDay[];
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * Answers the time asked from the week's opening hours and free times (both day by day from today, in the
 * business's zone); null when the day asked lies outside the days known (in the past, or past the week).
 * Closed or full then: the `most` free days nearest to it, in the part of day asked where there are any.
 */
export function answerAskedTime(
  asked: AskedTime,
  week: readonly OpenDay[],
  free: readonly OpenDay[],
  most: number,
): AskedAnswer | null {
  const open = week.find((d) => d.date === asked.date);
  if (!open) return null;
  const freeThen = withinPart(free.find((d) => d.date === asked.date)?.hours ?? [], asked.part);
  if (freeThen.length) return { ...asked, state: 'free', days: [{ date: asked.date, hours: freeThen }] };
  const state = withinPart(open.hours, asked.part).length ? 'full' : 'closed';
  const inPart = free
    .map((d) => ({ date: d.date, hours: withinPart(d.hours, asked.part) }))
    .filter((d) => d.hours.length);
  const candidates = (inPart.length ? inPart : free.filter((d) => d.hours.length)).filter((d) => d.date !== asked.date);
  const distance = (d: OpenDay) => Math.abs(dayNumber(d.date) - dayNumber(asked.date));
  const nearest = [...candidates]
    .sort((a, b) => distance(a) - distance(b) || a.date.localeCompare(b.date))
    .slice(0, most)
    .sort((a, b) => a.date.localeCompare(b.date));
  return { ...asked, state, days: nearest };
}
