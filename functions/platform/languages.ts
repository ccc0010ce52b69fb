/**
 * The languages the product writes to customers in (ISO 639-1): AI replies and booking messages. A
 * tenant's default language is one of them. Pure.
 */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (code: string): code is Language => (LANGUAGES as readonly string[]).includes(code);

/** The locale each language's dates are written in. */
export const LOCALES: Record<Language, string> = { en: 'en-GB', es: 'es-ES', pt: 'pt-PT', fr: 'fr-FR', de: 'de-DE' };
/** "at 15:00" in each language: Spanish and Portuguese say one o'clock in the singular, German adds "Uhr". */
const AT: Record<Language, (time: string) => string> = {
  en: (t) => `at ${t}`,
  es: (t) => `${t.startsWith('01:') ? 'a la' : 'a las'} ${t}`,
  pt: (t) => `${t.startsWith('01:') ? 'à' : 'às'} ${t}`,
  fr: (t) => `à ${t}`,
  de: (t) => `um ${t} Uhr`,
};

/** "Tuesday 24 November at 15:00", "martes, 24 de noviembre a las 15:00"…, in the given time zone. */
export function formatWhen(iso: string, timeZone: string, language: Language = 'en'): string {
  const d = new Date(iso);
  const locale = LOCALES[language];
  const parts = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' })
    .formatToParts(d)
    // French writes the first of the month "1er".
    .map((p) => (language === 'fr' && p.type === 'day' && p.value === '1' ? '1er' : p.value));
  const time = new Intl.DateTimeFormat(locale, {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
  return `${parts.join('')} ${AT[language](time)}`;
}
