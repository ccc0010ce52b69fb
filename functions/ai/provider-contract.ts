/** What an AI provider does, and the shapes it answers with. Pure types, no AWS imports. */
import type { AskedAnswer } from './asked-time';
import type { Category, Classification, Intent, Language } from './taxonomy';

export interface TranscriptLine {
  direction: 'inbound' | 'outbound';
  text: string;
}

/** Facts a reply may rely on. Anything not here must not appear in a suggestion. */
export interface Grounding {
  customerName: string | null;
  /** The customer's next upcoming booking, if any. */
  nextBooking: { id: string; service: string; start_at: string; timezone: string; status: string } | null;
  /**
   * The business's hours on each of the next seven days (the union of its resources' opening hours) as
   * clock times in its time zone; null when no resource has opening hours.
   */
  openingHours: DaysOfHours | null;
  /**
   * When a booking can still be made: the first few days of the week ahead with time that some resource
   * with opening hours is open and not booked, from now on, as clock times in the business's zone; null
   * when not known.
   */
  freeTimes: DaysOfHours | null;
  /**
   * The day (and part of day) the customer's last message asks about, within the week ahead: free then
   * (its free stretches), or closed or full then (the nearest free days); absent or null when none is asked.
   */
  askedFor?: AskedAnswer | null;
}

/** Clock times (`HH:MM`) per date (`YYYY-MM-DD`) in `timezone`. */
export interface DaysOfHours {
  timezone: string;
  days: { date: string; hours: { start: string; end: string }[] }[];
}

export interface Suggestion {
  text: string;
  intent: Intent;
  confidence: number;
}

export interface Categorization {
  category: { name: Category; confidence: number };
  candidates: { name: Category; confidence: number }[];
  suggested_tags: string[];
}

/*
 * A provider answers three operations, each its own interface: a handler calls one of them, and its
 * bundle holds that operation's code only (see ./provider-selection.ts). `defaultLanguage` is the
 * tenant's: the language of a message too short to tell.
 */

export interface Classifier {
  classify(text: string, defaultLanguage: Language): Promise<Classification>;
}

export interface Suggester {
  /**
   * `transcript` is oldest first; the reply answers its last customer message, in the language of that
   * message.
   */
  suggest(
    transcript: readonly TranscriptLine[],
    grounding: Grounding,
    count: number,
    defaultLanguage: Language,
  ): Promise<Suggestion[]>;
}

export interface Categorizer {
  categorize(transcript: readonly TranscriptLine[], defaultLanguage: Language): Promise<Categorization>;
}
