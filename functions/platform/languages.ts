/**
 * The languages the product writes to customers in (ISO 639-1): AI replies and booking messages. A
 * tenant's default language is one of them. Pure.
 */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (code: string): code is Language => (LANGUAGES as readonly string[]).includes(code);

/** The locale each language's dates are written in. */
export const LOCALES: Record<Language, string> = { en: 'en-GB', es: 'es-ES', pt: 'pt-PT', fr: 'fr-FR', de: 'de-DE' };
const AT: Record<Language, string> = { en: 'at', es: 'a las', pt: 'às', fr: 'à', de: 'um' };

/** "Tuesday 24 November at 15:00", "martes, 24 de noviembre a las 15:00"…, in the given time zone. */
export function formatWhen(iso: string, timeZone: string, language: Language = 'en'): string {
  const d = new Date(iso);
  const locale = LOCALES[language];
  const day = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(d);
  const time = new Intl.DateTimeFormat(locale, {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
  return `${day} ${AT[language]} ${time}`;
}
