/** Dates and small text helpers, in the browser's locale and time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
/** With seconds: for attempts a few seconds apart. */
export const formatDateTimeSeconds = (iso: string | null | undefined): string =>
  iso ? dateTimeSeconds.format(new Date(iso)) : '—';
export const formatTime = (iso: string | null | undefined): string => (iso ? timeOnly.format(new Date(iso)) : '—');

/** The time alone for an instant of today (in the browser's zone), else the date and time. */
export function formatWhen(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '—';
  return new Date(iso).toDateString() === now.toDateString() ? formatTime(iso) : formatDateTime(iso);
}

/** A score to two decimals, without the "-0.00" of a tiny negative. */
export const formatScore = (score: number): string => (Math.abs(score) < 0.005 ? 0 : score).toFixed(2);

export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

/** A wait in seconds as words: "3 minutes", "45 seconds". */
export function formatWait(seconds: number): string {
  const of = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 90) return of(Math.max(1, Math.round(seconds)), 'second');
  if (seconds < 5400) return of(Math.round(seconds / 60), 'minute');
  if (seconds < 129_600) return of(Math.round(seconds / 3600), 'hour');
  return of(Math.round(seconds / 86_400), 'day');
}

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** `YYYY-MM-DD` of a date in the browser's time zone. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** An instant from a local day (`YYYY-MM-DD`) and time (`HH:MM`). */
export function localInstant(day: string, time: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
}

export const localTimeOf = (iso: string): string => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** The zones to choose from: the browser's list (older browsers have none), with UTC. */
export function timeZones(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...listed.filter((z) => z !== 'UTC')];
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** How to reach a customer, as shown: the phone number, else their WhatsApp username (the number withheld). */
export const customerContact = (c: { phone: string | null; whatsapp_username?: string | null }): string =>
  c.phone ?? (c.whatsapp_username ? `@${c.whatsapp_username} (WhatsApp)` : 'WhatsApp user');
/** A customer as lists show them: the name, else how to reach them. */
export const customerLabel = (c: { name: string | null; phone: string | null; whatsapp_username?: string | null }) =>
  c.name ?? customerContact(c);
