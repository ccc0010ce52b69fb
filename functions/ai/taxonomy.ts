// Public: tenants configure their categories with it.
/** The fixed public AI taxonomy and the shapes every provider returns: pure, no AWS imports. */
import type { Language } from '../platform/languages';

export const INTENTS = [
  'greeting',
  'book_appointment',
  'reschedule_booking',
  'cancel_booking',
  'booking_status',
  'pricing',
  'opening_hours',
  'location',
  'payment_issue',
  'complaint',
  'request_human',
  'thanks',
  'goodbye',
  'other',
] as const;
export type Intent = (typeof INTENTS)[number];

export const SENTIMENTS = ['negative', 'neutral', 'positive'] as const;
export type SentimentLabel = (typeof SENTIMENTS)[number];

export const CATEGORIES = ['booking', 'billing', 'support', 'sales', 'general'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Which category each intent speaks for when a conversation is categorised. */
export const INTENT_CATEGORY: Record<Intent, Category> = {
  greeting: 'general',
  book_appointment: 'booking',
  reschedule_booking: 'booking',
  cancel_booking: 'booking',
  booking_status: 'booking',
  pricing: 'sales',
  opening_hours: 'general',
  location: 'general',
  payment_issue: 'billing',
  complaint: 'support',
  request_human: 'support',
  thanks: 'general',
  goodbye: 'general',
  other: 'general',
};

/** Intents that carry no topic of their own: they never decide a conversation's category. */
export const PLEASANTRIES: ReadonlySet<Intent> = new Set(['greeting', 'thanks', 'goodbye']);

export interface Sentiment {
  label: SentimentLabel;
  /** -1 (very negative) to 1 (very positive). */
  score: number;
  confidence: number;
}

export interface IntentScore {
  name: Intent;
  confidence: number;
}

/** What every provider's classifier yields for one message. */
export interface Classification {
  sentiment: Sentiment;
  intent: IntentScore;
  /** The top three, best first. */
  intents: IntentScore[];
  /** ISO 639-1, one of LANGUAGES: the tenant's default language when the text is too short to tell. */
  language: Language;
}

export type ProviderName = 'local' | 'bedrock';

/** The languages the AI understands and answers in: those the product writes in. */
export { LANGUAGES, isLanguage, type Language } from '../platform/languages';
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Spanish',
  pt: 'Portuguese',
  fr: 'French',
  de: 'German',
};

export const round = (n: number, places = 3): number => Math.round(n * 10 ** places) / 10 ** places;
