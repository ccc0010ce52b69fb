import * as z from 'zod/mini';
import { clock } from './clock';
import { unprocessable, type FieldError } from './errors';
import { isId, type IdPrefix } from './ids';

// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Checks for text a person reads (names, descriptions, notes, what the business sends): no control
 * characters but tab and line breaks, and no lone UTF-16 surrogates, which no channel or page can show
 * (they would reach the reader as replacement characters).
 */
export const readable = () =>
  [
    z.refine<string>((text) => !CONTROL_CHARACTERS.test(text), 'must not contain control characters'),
    z.refine<string>((text) => !/\p{Cs}/u.test(text), 'must be well-formed Unicode (no lone surrogates)'),
  ] as const;

/**
 * A schema built on its first use rather than when its module loads. A handler's module would otherwise
 * build every schema of its feature on each cold start (a few milliseconds of CPU), though it parses with
 * one or two. The value stands for the schema in every way (parse, compose, describe): each property is
 * the built schema's.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = () => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key, schema()),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a property of its (empty) target as non-configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/** Helpers for the checks we use everywhere. */
export const trimmed = (min: number, max: number) =>
  z.string().check(z.trim(), z.minLength(min), z.maxLength(max), ...readable());
export const nonEmptyPatch = <T extends object>(schema: z.ZodMiniType<T>) =>
  schema.check(z.refine((body) => Object.keys(body).length > 0, 'send at least one field to change'));

/**
 * Names every plain object inherits (`__proto__`, `constructor`, `toString` …). As keys of a free-form map
 * they are object machinery, not data: zod drops `__proto__` without a word, and the DynamoDB marshaller
 * fails on `constructor`. So free-form maps refuse them (422) rather than store something other than what was sent.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

const noReservedKeys = z.unknown().check(
  z.superRefine((value, ctx) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    // The raw input: z.record itself skips __proto__ before any key check could see it.
    for (const key of Object.keys(value)) {
      if (RESERVED_KEYS.has(key))
        ctx.addIssue({
          code: 'custom',
          message: 'reserved name: keys such as __proto__, constructor or toString are not accepted',
          path: [key],
          input: key,
        });
    }
  }),
);

/** A free-form map of client data (such as booking `metadata`): z.record, with reserved key names refused. */
export const dataMap = <K extends z.ZodMiniType<string, string>, V extends z.ZodMiniType>(key: K, value: V) =>
  z.pipe(noReservedKeys, z.record(key, value));

const count = (origin: string | undefined, n: number | bigint) =>
  origin === 'string' || origin === 'array'
    ? `${n} ${origin === 'string' ? 'character' : 'item'}${Number(n) === 1 ? '' : 's'}`
    : n;
const A: Record<string, string> = { object: 'an object', array: 'an array', int: 'a whole number' };

/**
 * Zod's messages, in place of its English locale: a short phrase that follows the field's path ("must be
 * at most 100 characters", "is required"). Messages a schema gives its own checks are kept as they are.
 */
function plainWords(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'too_big':
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${count(issue.origin, issue.maximum)}`;
    case 'too_small':
      return issue.inclusive === false
        ? `must be more than ${count(issue.origin, issue.minimum)}`
        : issue.origin === 'string' && Number(issue.minimum) === 1
          ? 'must not be empty'
          : `must be at least ${count(issue.origin, issue.minimum)}`;
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${A[issue.expected] ?? `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be ${issue.values.length > 1 ? 'one of ' : ''}${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'email'
        ? 'must be an email address'
        : issue.format === 'datetime'
          ? 'must be an ISO 8601 date and time'
          : 'is not in the expected format';
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'invalid_key':
      // A record's key: what is wrong with the name itself.
      return `the name ${issue.issues[0]?.message ?? 'is not valid'}`;
    case 'invalid_union': {
      // Alternatives of different types (a metadata value): name the types accepted.
      const types = issue.errors.flatMap((branch) =>
        branch.flatMap((i) => (i.code === 'invalid_type' && i.path.length === 0 ? [i.expected] : [])),
      );
      if (issue.errors.length === 0 || types.length !== issue.errors.length) return 'is not valid';
      const words = types.map((t) => (t === 'null' ? 'null' : (A[t] ?? `a ${t}`)));
      return `must be ${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
    }
    default:
      return 'is not valid';
  }
}
/*
 * zod/mini, not classic zod: its functional API tree-shakes, which keeps each handler bundle small (classic
 * zod pulls every locale into every bundle). No zod locale is loaded at all: plainWords words every message.
 * Import `* as z from 'zod/mini'` directly where needed: re-exporting the namespace would defeat tree-shaking.
 */
z.config({ localeError: plainWords });

export const fieldErrors = (error: z.core.$ZodError): FieldError[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));

export type Schema<T> = z.ZodMiniType<T>;

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
}

/**
 * A public id of one kind (`conv_…`). The pattern is only documentation (the OpenAPI document); the
 * check is isId's, so a malformed id reads "must be a conversation id (conv_…)".
 */
export const idOf = (prefix: IdPrefix, noun: string) =>
  z.string().check(
    z.refine((v) => isId(prefix, v), `must be a ${noun} id (${prefix}_…)`),
    z.meta({ pattern: `^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$` }),
  );

/** An IANA time zone name, such as Europe/Berlin (or UTC). */
export const timezone = () =>
  z.string().check(z.maxLength(64), z.refine(isValidTimezone, 'must be an IANA time zone such as Europe/Berlin'));

/**
 * The range of every date the API accepts (booking times, availability windows, schedule dates, snoozes,
 * filters): from the Unix epoch, where ids and expiry times start counting, to MAX_YEARS_AHEAD years from
 * now. It bounds the work any one date can ask for, and keeps every date a four-digit year, which sorts as
 * text. Outside it: 422 `date_out_of_range`, naming the field and the bound.
 */
export const MAX_YEARS_AHEAD = 5;
export const EARLIEST_DATE = '1970-01-01';
export const DATE_OUT_OF_RANGE = 'date_out_of_range';

/** The latest instant the API accepts at `now`. */
export const latestAccepted = (now: Date): Date => {
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_YEARS_AHEAD);
  return latest;
};

/** Why a date (epoch ms of its instant, or of its day's start) is outside the accepted range, if it is. */
function rangeProblem(ms: number, now: Date, shown: (latest: Date) => string): string | null {
  // Not a date at all: the format's own check says so.
  if (Number.isNaN(ms)) return null;
  if (!(ms >= Date.parse(`${EARLIEST_DATE}T00:00:00Z`))) return `must not be before ${EARLIEST_DATE}`;
  const latest = latestAccepted(now);
  if (ms > latest.getTime()) return `must be at most ${MAX_YEARS_AHEAD} years from now (${shown(latest)})`;
  return null;
}

/** A range check whose issue the handler answers as 422 `date_out_of_range` (http/handler.ts). */
const inRange = (msOf: (value: string) => number, shown: (latest: Date) => string) =>
  z.superRefine<string>((value, ctx) => {
    const message = rangeProblem(msOf(value), clock.now(), shown);
    if (message) ctx.addIssue({ code: 'custom', message, input: value, params: { problem: DATE_OUT_OF_RANGE } });
  });

/** Whether a schema issue is a date outside the accepted range. */
export const isDateRangeIssue = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'custom' && (issue.params as { problem?: string } | undefined)?.problem === DATE_OUT_OF_RANGE;

/** 422 `date_out_of_range`: dates outside their bounds, each named with its bound. */
export const dateOutOfRange = (errors: FieldError[]) =>
  unprocessable(DATE_OUT_OF_RANGE, 'A date is outside the range the API accepts.', errors);

/**
 * An ISO 8601 instant with any offset, normalised to UTC (`…Z`), so equal instants compare equal; within
 * the accepted range (an offset that carries the year past 9999 in UTC is far outside it).
 */
export const instant = () =>
  z
    .pipe(
      z.iso.datetime({ offset: true }),
      z.transform((v: string) => new Date(v).toISOString()),
    )
    .check(inRange(Date.parse, (latest) => latest.toISOString()));

/** A calendar date, `YYYY-MM-DD`, within the accepted range (by the day's start in UTC). */
export const calendarDateInRange = () =>
  inRange(
    (date) => Date.parse(`${date}T00:00:00Z`),
    (latest) => latest.toISOString().slice(0, 10),
  );

/**
 * A whole number given in a query string, from `min` to `max`. Plain decimal digits only: Number() would
 * also take "0x10", "1e2", " 5" or "", so the text is checked before it is converted. The contract
 * declares it as the integer it stands for (with its bounds), so typed clients pass a number.
 */
export const wholeNumberParam = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .pipe(z.string().check(z.regex(new RegExp(`^\\d{1,${String(max).length}}$`), message)), z.transform(Number))
    .check(
      z.refine((n) => n >= min && n <= max, message),
      z.meta({ type: 'integer', minimum: min, maximum: max }),
    );
};
