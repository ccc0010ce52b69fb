/** The `local` provider: offline, deterministic, a few milliseconds per message. */
import { categorizeFrom } from '../categories';
import { detectLanguage } from '../language';
import type { AiProvider, TranscriptLine } from '../provider-contract';
import { groundedReplies } from '../replies';
import { round, type Classification, type SentimentLabel } from '../taxonomy';
import { loadLocalModel, type LocalModel, type ModelSnapshot } from './model';
import { MODEL_SNAPSHOT } from './model-data';

let model: LocalModel | undefined;
/** Loaded on first use, not at module load, so handlers that never classify pay nothing. */
export function localModel(): LocalModel {
  model ??= loadLocalModel(JSON.parse(MODEL_SNAPSHOT) as ModelSnapshot);
  return model;
}

export function classifyLocally(text: string): Classification {
  const verdict = localModel()(text);
  const intents = verdict.intent.ranked.slice(0, 3).map(({ label, p }) => ({ name: label, confidence: round(p) }));
  const { sentiment } = verdict;
  const p = (label: SentimentLabel) => sentiment.ranked.find((r) => r.label === label)?.p ?? 0;
  const [best] = sentiment.ranked;
  // The score leans on the classifier's balance of positive against negative, steadied by the lexicon.
  const blended = Math.max(-1, Math.min(1, 0.7 * (p('positive') - p('negative')) + 0.3 * verdict.lexicon));
  // The score never contradicts the label: a negative message scores below zero, a positive one above.
  const score =
    best?.label === 'negative'
      ? Math.min(blended, -0.05)
      : best?.label === 'positive'
        ? Math.max(blended, 0.05)
        : blended;
  return {
    sentiment: { label: best?.label ?? 'neutral', score: round(score), confidence: round(best?.p ?? 1) },
    intent: intents[0] ?? { name: 'other', confidence: 0 },
    intents,
    language: detectLanguage(text, verdict.recognised),
  };
}

const lastCustomerText = (transcript: readonly TranscriptLine[]) =>
  [...transcript].reverse().find((l) => l.direction === 'inbound')?.text ?? '';

export const localProvider: AiProvider = {
  name: 'local',
  classify: async (text) => classifyLocally(text),
  suggest: async (transcript, grounding, count) =>
    groundedReplies(classifyLocally(lastCustomerText(transcript)).intents, grounding, count),
  categorize: async (transcript) =>
    categorizeFrom(transcript.filter((l) => l.direction === 'inbound').map((l) => classifyLocally(l.text))),
};
