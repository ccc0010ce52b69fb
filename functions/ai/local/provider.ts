/** The `local` provider: offline, deterministic, a few milliseconds per message. */
import { categorizeFrom } from '../categories';
import { identifyLanguage } from '../language';
import type { Categorizer, Classifier, Suggester, TranscriptLine } from '../provider-contract';
import { groundedReplies } from '../replies';
import { round, type Classification, type Language, type SentimentLabel } from '../taxonomy';
import { loadLocalModel, type LocalModel, type ModelSnapshot } from './model';
import { readModelFile } from './model-files';

const models = new Map<Language, LocalModel>();
/**
 * Each language's model is read from its data file on first use, not at module load: handlers that
 * never classify pay nothing, and a tenant whose customers write Spanish never loads German.
 */
export function localModel(language: Language): LocalModel {
  let model = models.get(language);
  if (!model) {
    model = loadLocalModel(readModelFile<ModelSnapshot>(language));
    models.set(language, model);
  }
  return model;
}

/** `defaultLanguage`: the tenant's, used when the text is too short to tell its language. */
export function classifyLocally(text: string, defaultLanguage: Language = 'en'): Classification {
  const language = identifyLanguage(text, defaultLanguage);
  const verdict = localModel(language)(text);
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
    language,
  };
}

const lastCustomerText = (transcript: readonly TranscriptLine[]) =>
  [...transcript].reverse().find((l) => l.direction === 'inbound')?.text ?? '';

// One object per operation (see ../provider-contract.ts): a handler that only classifies references
// localClassifier alone, and its bundle leaves out the reply templates and the category rules.
export const localClassifier: Classifier = {
  classify: async (text, defaultLanguage) => classifyLocally(text, defaultLanguage),
};

export const localSuggester: Suggester = {
  suggest: async (transcript, grounding, count, defaultLanguage) => {
    const last = classifyLocally(lastCustomerText(transcript), defaultLanguage);
    return groundedReplies(last.intents, grounding, count, last.language);
  },
};

export const localCategorizer: Categorizer = {
  categorize: async (transcript, defaultLanguage) =>
    categorizeFrom(
      transcript.filter((l) => l.direction === 'inbound').map((l) => classifyLocally(l.text, defaultLanguage)),
    ),
};
