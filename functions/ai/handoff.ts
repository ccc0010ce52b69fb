/**
 * When a conversation goes to a human: the rules and every threshold, in one place (docs/api.md, "Handoff").
 * Pure functions, no AWS imports.
 */
import type { HandoffReason } from '../conversations/conversation';
import type { Classification } from './taxonomy';

export const HANDOFF_RULES = {
  /** An intent counts once the classifier is at least this sure of it. */
  intentConfidence: 0.4,
  /** A message counts as clearly negative at this sentiment confidence… */
  negativeConfidence: 0.7,
  /** …and at or below this score. */
  negativeScore: -0.25,
  /** This many clearly negative customer messages in a row (agent replies in between do not break the run). */
  consecutiveNegatives: 2,
} as const;

type Verdict = Pick<Classification, 'sentiment' | 'intent'>;

export const isClearlyNegative = (c: Verdict | null): boolean =>
  c !== null &&
  c.sentiment.label === 'negative' &&
  c.sentiment.confidence >= HANDOFF_RULES.negativeConfidence &&
  c.sentiment.score <= HANDOFF_RULES.negativeScore;

/**
 * Why this customer message should go to a human, or null. `earlier` are the customer's previous
 * messages in the conversation, newest first, null where one was never analysed (it breaks a run).
 */
export function handoffReason(current: Verdict, earlier: readonly (Verdict | null)[]): HandoffReason | null {
  if (current.intent.confidence >= HANDOFF_RULES.intentConfidence) {
    if (current.intent.name === 'request_human') return 'request_human';
    if (current.intent.name === 'complaint') return 'complaint';
  }
  const run = [current, ...earlier.slice(0, HANDOFF_RULES.consecutiveNegatives - 1)];
  if (run.length === HANDOFF_RULES.consecutiveNegatives && run.every(isClearlyNegative)) return 'negative_sentiment';
  return null;
}
