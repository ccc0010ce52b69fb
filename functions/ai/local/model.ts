/**
 * The local model: two naive Bayes classifiers (wink), one for intent and one for sentiment, trained on
 * the labelled set in ./training-data.ts by `npm run train:ai`, which writes the result to
 * ./model-data.ts. Loading that takes a few milliseconds where training takes a hundred; a test fails
 * if the two ever disagree.
 */
import naiveBayes, { type NaiveBayes } from 'wink-naive-bayes-text-classifier';
import { INTENTS, SENTIMENTS, type Intent, type SentimentLabel } from '../taxonomy';
import { lexiconScore } from './lexicon';
import { Speller, expand, features, tokenize } from './text';

export type Example = readonly [text: string, intent: Intent, sentiment: SentimentLabel];

export interface Probabilities<L extends string> {
  /** Every label, most likely first; probabilities add up to 1. */
  ranked: { label: L; p: number }[];
}

export interface LocalVerdict {
  intent: Probabilities<Intent>;
  sentiment: Probabilities<SentimentLabel>;
  /** The lexicon's score, -1…1. */
  lexicon: number;
  /** Most of the words are in the training vocabulary (after typo correction): the text reads as English. */
  recognised: boolean;
}

export type LocalModel = (text: string) => LocalVerdict;

/** The lexicon's verdict enters the sentiment classifier as repeated marker features: its weight. */
const LEXICON_WEIGHT = 3;
/** Additive smoothing of the naive Bayes counts (chosen by cross-validation on the training set). */
const SMOOTHING = 0.25;
/** Softens naive Bayes' overconfident log-odds into usable confidences. */
const TEMPERATURE = 3;

function lexiconMarker(score: number): string {
  if (score <= -0.5) return '__lex_neg2';
  if (score < -0.05) return '__lex_neg1';
  if (score >= 0.5) return '__lex_pos2';
  if (score > 0.05) return '__lex_pos1';
  return '__lex_none';
}

function sentimentFeatures(base: string[], lexicon: number): string[] {
  return [...base, ...Array<string>(LEXICON_WEIGHT).fill(lexiconMarker(lexicon))];
}

function rank<L extends string>(nb: NaiveBayes, input: string[], labels: readonly L[], fallback: L): Probabilities<L> {
  const odds = new Map(nb.computeOdds(input));
  if (odds.has('unknown'))
    return {
      ranked: labels
        .map((label) => ({ label, p: label === fallback ? 0.4 : 0.6 / (labels.length - 1) }))
        .sort((a, b) => b.p - a.p),
    };
  const top = Math.max(...labels.map((l) => odds.get(l) ?? -Infinity));
  // Log-odds grow with every feature; a long message is not that much more certain than a short one.
  const temperature = TEMPERATURE * Math.max(1, Math.sqrt(input.length / 8));
  const weights = labels.map((label) => ({ label, w: 2 ** (((odds.get(label) ?? -Infinity) - top) / temperature) }));
  const sum = weights.reduce((s, x) => s + x.w, 0);
  return { ranked: weights.map(({ label, w }) => ({ label, p: w / sum })).sort((a, b) => b.p - a.p) };
}

/** A trained model as data: what `npm run train:ai` writes to ./model-data.ts. */
export interface ModelSnapshot {
  intents: string;
  sentiments: string;
  /** Training vocabulary with counts, for typo correction. */
  vocabulary: [string, number][];
}

export function trainLocalModel(examples: readonly Example[], smoothingFactor = SMOOTHING): ModelSnapshot {
  const speller = new Speller();
  for (const [text] of examples)
    for (const token of tokenize(text)) if (token.tag === 'word') for (const w of expand(token.value)) speller.add(w);
  const intents = naiveBayes();
  const sentiments = naiveBayes();
  intents.defineConfig({ considerOnlyPresence: true, smoothingFactor });
  sentiments.defineConfig({ considerOnlyPresence: true, smoothingFactor });
  for (const [text, intent, sentiment] of examples) {
    const base = features(tokenize(text), undefined);
    intents.learn(base, intent);
    sentiments.learn(sentimentFeatures(base, lexiconScore(text)), sentiment);
  }
  return { intents: intents.exportJSON(), sentiments: sentiments.exportJSON(), vocabulary: speller.entries() };
}

export function loadLocalModel(snapshot: ModelSnapshot): LocalModel {
  const speller = Speller.from(snapshot.vocabulary);
  const intents = naiveBayes();
  const sentiments = naiveBayes();
  intents.importJSON(snapshot.intents);
  sentiments.importJSON(snapshot.sentiments);
  intents.consolidate();
  sentiments.consolidate();
  return (text) => {
    const tokens = tokenize(text);
    const input = features(tokens, speller);
    const lexicon = lexiconScore(text);
    const words = tokens.filter((t) => t.tag === 'word').flatMap((t) => expand(t.value));
    return {
      intent: rank(intents, input, INTENTS, 'other'),
      sentiment: rank(sentiments, sentimentFeatures(input, lexicon), SENTIMENTS, 'neutral'),
      lexicon,
      recognised:
        words.length > 0 && words.filter((w) => speller.knows(speller.correct(w))).length / words.length >= 0.6,
    };
  };
}
