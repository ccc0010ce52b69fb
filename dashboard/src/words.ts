/** What the AI's labels mean, in the words agents use. */
import type { MessageAnalysis } from '@messaging-platform/sdk';

type Sentiment = MessageAnalysis['sentiment'];

/** "upset", "neutral", "happy": the customer's mood, not the classifier's label. */
export function sentimentWord(sentiment: Pick<Sentiment, 'label'>): string {
  if (sentiment.label === 'negative') return 'upset';
  if (sentiment.label === 'positive') return 'happy';
  return 'neutral';
}

/** A score to two decimals, without the "-0.00" of a tiny negative. */
const score = (n: number): string => (Math.abs(n) < 0.005 ? 0 : n).toFixed(2);

/** The numbers behind the word, for a tooltip. */
export const sentimentDetail = (s: Sentiment): string =>
  `Sentiment score ${score(s.score)} (from -1 upset to +1 happy), confidence ${Math.round(s.confidence * 100)}%`;

const INTENT_LABELS: Record<string, string> = {
  book_appointment: 'Wants to book',
  reschedule_booking: 'Reschedule',
  cancel_booking: 'Cancel',
  booking_status: 'Booking check',
  pricing: 'Prices',
  opening_hours: 'Opening hours',
  location: 'Directions',
  payment_issue: 'Payment problem',
  complaint: 'Complaint',
  request_human: 'Wants a person',
  thanks: 'Thanks',
  goodbye: 'Goodbye',
  greeting: 'Greeting',
  other: 'Other',
};

/** An intent as a short label ("Wants to book"); an unknown one in plain words. */
export const intentLabel = (name: string): string => {
  const known = INTENT_LABELS[name];
  if (known) return known;
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
