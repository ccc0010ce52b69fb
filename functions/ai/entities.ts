/**
 * Entity extraction shared by every provider (deterministic, so Bedrock answers carry the same
 * entities): dates and times with chrono in the message's language, resolved in the tenant's time zone; phone numbers with
 * libphonenumber; e-mail addresses; amounts of money.
 */
import type * as chrono from 'chrono-node';
import type { MetadataJson } from 'libphonenumber-js/core';
import { readModelFile } from './local/model-files';
import type { Language } from './taxonomy';
import { instantOfWallClock, zoneOffsetMinutes } from '../platform/time-zones';

/**
 * libphonenumber's metadata (the numbering plans of every country, its "min" set) is data: `npm run
 * train:ai` copies it beside the models, and it is read on the first message with a phone number in it.
 */
export const PHONE_METADATA = 'phone-numbers';
let phoneMetadataJson: MetadataJson | undefined;

export type Entity =
  | { type: 'datetime'; text: string; value: string; timezone: string }
  | { type: 'date'; text: string; value: string; timezone: string }
  | { type: 'email'; text: string; value: string }
  | { type: 'phone'; text: string; value: string }
  | { type: 'money'; text: string; value: { amount: number; currency: string | null } };
type DateEntity = Extract<Entity, { type: 'date' | 'datetime' }>;

/**
 * A match may only start where a run of the characters it starts with begins (the look-behinds). The
 * leftmost match is the same either way, but without them the engine retries every position of a long
 * run, and its work grows with the square of the run's length.
 */
const EMAIL = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;
const CURRENCY_SYMBOL: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' };
const CURRENCY_WORD: Record<string, string> = {
  usd: 'USD',
  dollars: 'USD',
  dollar: 'USD',
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  gbp: 'GBP',
  pounds: 'GBP',
  quid: 'GBP',
  bucks: 'USD',
};
const MONEY =
  /([$€£¥₹])\s?(\d{1,3}(?:[,.]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)|(?<!\d)(\d+(?:[.,]\d{1,2})?)\s?(usd|eur|gbp|dollars?|euros?|pounds|quid|bucks)\b/gi;

/** What customers write between the digit groups of a phone number. */
const PHONE_SEPARATOR = String.raw`[\p{Zs}\-\u2010-\u2015\u2212\uFF0D./()\[\]]`;
/**
 * A phone number in international form, the only form libphonenumber reads without the customer's
 * country: a plus sign, then groups of digits between up to four separators, as in "+44 7911 123456",
 * "(+34) 612-34-56-78" or "+49 (0)30 1234567". Groups and separators never overlap, and both are capped
 * (no number has more than 20 digits), so the search stays linear.
 */
const PHONE_CANDIDATE = new RegExp(
  String.raw`[(\[]?\+${PHONE_SEPARATOR}{0,4}\p{Nd}{1,20}(?:${PHONE_SEPARATOR}{1,4}\p{Nd}{1,20}){0,20}`,
  'gu',
);
/**
 * A candidate that is no valid number as a whole may start with one, ended by the first of these
 * ("+44 7911 123456. 2 of us"), tried in libphonenumber's order. The rest of a candidate has no plus
 * sign, so no number either.
 */
const PHONE_BREAKS = [/\//u, /\(/u, /\p{Zs}-|-\p{Zs}/u, /[\u2012-\u2015\uFF0D]/u, /\./u, /\p{Zs}/u];
/** Digits that run on into a word or an amount ("+447911123456abc") are no number: libphonenumber's rule. */
const GLUED_TO_NUMBER = /[\p{Script=Latin}\p{Mn}\p{Sc}%]/u;

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');
const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/** The wall-clock time in `timeZone`, as ISO 8601 with that zone's offset on that day. */
function zonedIso(c: chrono.ParsedComponents, timeZone: string): string {
  const wall = Date.UTC(
    c.get('year') ?? 1970,
    (c.get('month') ?? 1) - 1,
    c.get('day') ?? 1,
    businessHour(c),
    c.get('minute') ?? 0,
  );
  // The offset of the instant itself (it may differ from today's across a DST change).
  const offset = zoneOffsetMinutes(timeZone, new Date(instantOfWallClock(timeZone, wall)));
  const d = new Date(wall);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00${offsetText(offset)}`;
}

/** Brazilian and Portuguese customers write times as "às 14h" or "às 10h30", which chrono's pt lacks. */
function portuguese(casual: chrono.Chrono): chrono.Chrono {
  const parser = casual.clone();
  parser.parsers.push({
    pattern: () => /(?<!\p{L})(?:às|as)\s+(\d{1,2})h(\d{2})?(?![\p{L}\d])/iu,
    extract: (_context, match) => {
      const hour = Number(match[1]);
      const minute = Number(match[2] ?? 0);
      return hour < 24 && minute < 60 ? { hour, minute } : null;
    },
  });
  return parser;
}

/**
 * chrono's parser for each language ("el viernes a las 5", "amanhã às 14h", "nächsten Dienstag um 10"),
 * each a bundle beside the function's (`#chrono-en` and so on: functions/ai/chrono/), imported when a
 * process first reads that language's dates: a cold start parses the language it meets, not all five.
 */
const CHRONO: Record<Language, () => Promise<{ casual: chrono.Chrono }>> = {
  en: () => import('#chrono-en'),
  es: () => import('#chrono-es'),
  pt: () => import('#chrono-pt'),
  fr: () => import('#chrono-fr'),
  de: () => import('#chrono-de'),
};
/** Each language's parser, built once: concurrent first calls share one import (a failed one is not kept). */
const parsers = new Map<Language, Promise<chrono.Chrono>>();
function parserFor(language: Language): Promise<chrono.Chrono> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = CHRONO[language]().then(({ casual }) => (language === 'pt' ? portuguese(casual) : casual));
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/**
 * "Friday at 5", "a las 5", "um 3": an hour from 1 to 6 with no am/pm and no 24-hour form means the
 * afternoon to a business that takes bookings, not the small hours.
 */
function businessHour(c: chrono.ParsedComponents): number {
  const hour = c.get('hour') ?? 0;
  return hour >= 1 && hour <= 6 && !c.isCertain('meridiem') ? hour + 12 : hour;
}

async function dates(text: string, now: Date, timeZone: string, language: Language): Promise<DateEntity[]> {
  const reference = { instant: now, timezone: zoneOffsetMinutes(timeZone, now) };
  return (await parserFor(language)).parse(text, reference, { forwardDate: true }).map((result): DateEntity => {
    const c = result.start;
    if (c.isCertain('hour'))
      return { type: 'datetime', text: result.text, value: zonedIso(c, timeZone), timezone: timeZone };
    return {
      type: 'date',
      text: result.text,
      value: `${c.get('year')}-${pad(c.get('month') ?? 1)}-${pad(c.get('day') ?? 1)}`,
      timezone: timeZone,
    };
  });
}

function phoneMetadata(): MetadataJson {
  return (phoneMetadataJson ??= readModelFile<MetadataJson>(PHONE_METADATA));
}

type PhoneNumbers = typeof import('#phone-numbers');

/** The valid number `candidate` is, or starts with; `glued`: it runs on into a word, so only a start can be. */
function phoneNumber(
  { parsePhoneNumberFromString }: PhoneNumbers,
  candidate: string,
  glued: boolean,
): Entity | undefined {
  const breaks = PHONE_BREAKS.map((pattern) => candidate.search(pattern)).filter((at) => at > 0);
  for (const end of glued ? breaks : [candidate.length, ...breaks]) {
    const text = candidate.slice(0, end).replace(/\P{Nd}+$/u, '');
    const number = parsePhoneNumberFromString(text, phoneMetadata());
    if (number?.isValid()) return { type: 'phone', text, value: number.number };
  }
  return undefined;
}

/** libphonenumber is loaded by the first message with a candidate in it (functions/ai/phone-numbers.ts says why). */
async function phoneNumbers(text: string): Promise<Entity[]> {
  const candidates = [...text.matchAll(PHONE_CANDIDATE)];
  if (candidates.length === 0) return [];
  const parser = await import('#phone-numbers');
  return candidates.flatMap(({ 0: candidate, index }) => {
    const found = phoneNumber(parser, candidate, GLUED_TO_NUMBER.test(text.charAt(index + candidate.length)));
    return found ? [found] : [];
  });
}

function money(text: string): Entity[] {
  return [...text.matchAll(MONEY)].map((m): Entity => {
    const [whole, symbol, symbolAmount, wordAmount, word] = m;
    const raw = (symbolAmount ?? wordAmount ?? '0').replace(/[,.](?=\d{3}\b)/g, '').replace(',', '.');
    const currency = symbol ? (CURRENCY_SYMBOL[symbol] ?? null) : (CURRENCY_WORD[(word ?? '').toLowerCase()] ?? null);
    return { type: 'money', text: whole.trim(), value: { amount: Number(raw), currency } };
  });
}

/** The dates and times in `text` (its e-mail addresses are no dates). */
export const dateEntities = (
  text: string,
  now: Date,
  timeZone: string,
  language: Language = 'en',
): Promise<DateEntity[]> => dates(text.replace(EMAIL, ' '), now, timeZone, language);

export async function extractEntities(
  text: string,
  now: Date,
  timeZone: string,
  language: Language = 'en',
): Promise<Entity[]> {
  const emails = [...text.matchAll(EMAIL)].map((m): Entity => ({
    type: 'email',
    text: m[0],
    value: m[0].toLowerCase(),
  }));
  const withoutEmails = text.replace(EMAIL, ' ');
  return [
    ...(await dates(withoutEmails, now, timeZone, language)),
    ...emails,
    ...(await phoneNumbers(withoutEmails)),
    ...money(withoutEmails),
  ];
}
