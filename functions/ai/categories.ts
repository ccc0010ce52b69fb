/** A conversation's category and tags from the intents of its customer messages. Pure, no AWS imports. */
import type { Categorization } from './provider-contract';
import {
  CATEGORIES,
  INTENT_CATEGORY,
  PLEASANTRIES,
  round,
  type Category,
  type Classification,
  type Intent,
} from './taxonomy';

/** Tags suggested for an intent seen with confidence. */
const INTENT_TAGS: Partial<Record<Intent, string>> = {
  book_appointment: 'new-booking',
  reschedule_booking: 'reschedule',
  cancel_booking: 'cancellation',
  booking_status: 'booking-status',
  pricing: 'pricing',
  opening_hours: 'opening-hours',
  location: 'directions',
  payment_issue: 'payment-issue',
  complaint: 'complaint',
  request_human: 'needs-human',
};

const TAG_CONFIDENCE = 0.5;

/**
 * Each customer message votes with its intent probabilities; newer messages weigh more (the latest
 * counts twice the first), and pleasantries count for little so "thanks!" never outvotes the topic.
 */
export function categorizeFrom(classified: readonly Classification[]): Categorization {
  const votes = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  classified.forEach((c, i) => {
    const recency = 1 + (classified.length > 1 ? i / (classified.length - 1) : 1);
    for (const scored of c.intents)
      votes[INTENT_CATEGORY[scored.name]] += scored.confidence * recency * (PLEASANTRIES.has(scored.name) ? 0.2 : 1);
  });
  const total = Object.values(votes).reduce((s, v) => s + v, 0);
  const candidates = CATEGORIES.map((name) => ({
    name,
    confidence: total > 0 ? round(votes[name] / total) : name === 'general' ? 1 : 0,
  })).sort((a, b) => b.confidence - a.confidence);
  const tags = new Set<string>();
  for (const c of classified) {
    const tag = c.intent.confidence >= TAG_CONFIDENCE ? INTENT_TAGS[c.intent.name] : undefined;
    if (tag) tags.add(tag);
  }
  if (classified.some((c) => c.sentiment.label === 'negative' && c.sentiment.confidence >= TAG_CONFIDENCE))
    tags.add('unhappy');
  const [top] = candidates;
  return { category: top ?? { name: 'general', confidence: 1 }, candidates, suggested_tags: [...tags] };
}
