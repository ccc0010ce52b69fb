/**
 * The local model of one language: a logistic regression for intent (./softmax.ts) and a naive Bayes
 * classifier for sentiment (wink's, see ./naive-bayes.ts), trained on functions/ai/data/training/<lang>.jsonl
 * by `npm run train:ai` (./training.ts), which writes the result to ./models/<lang>.json.gz. Loading that
 * takes a few milliseconds where training takes up to a second; a test fails if the two ever disagree.
 */
import type { Token } from 'wink-tokenizer';
import { SENTIMENTS, type Intent, type Language, type SentimentLabel } from '../taxonomy';
import { lexiconScore, rulesLexiconScore, type EnglishLexicon, type SentimentRules } from './lexicon';
import { textRules, type RulesData } from './languages';
import { naiveBayesOdds, type NaiveBayesOdds } from './naive-bayes';
import { loadSoftmax, type SoftmaxSnapshot } from './softmax';
import { Speller, expand, features, tokenize, type TextRules } from './text';

export interface Probabilities<L extends string> {
  /** Every label, most likely first; probabilities add up to 1. */
  ranked: { label: L; p: number }[];
}

export interface LocalVerdict {
  intent: Probabilities<Intent>;
  sentiment: Probabilities<SentimentLabel>;
  /** The lexicon's score, -1…1. */
  lexicon: number;
}

export type LocalModel = (text: string) => LocalVerdict;

/** The lexicon's verdict enters the sentiment classifier as repeated marker features: its weight. */
const LEXICON_WEIGHT = 3;
/**
 * Intent also reads each word's character 4-grams (with the word's edges): they tie together the
 * inflections and misspellings the stemmer and speller miss, worth 3 to 4 points of accuracy in
 * cross-validation on the smaller training sets.
 */
const CHAR_GRAM = 4;
/** Softens naive Bayes' overconfident log-odds into usable confidences. */
const TEMPERATURE = 3;

function lexiconMarker(score: number): string {
  if (score <= -0.5) return '__lex_neg2';
  if (score < -0.05) return '__lex_neg1';
  if (score >= 0.5) return '__lex_pos2';
  if (score > 0.05) return '__lex_pos1';
  return '__lex_none';
}

export function sentimentFeatures(base: string[], lexicon: number): string[] {
  return [...base, ...Array<string>(LEXICON_WEIGHT).fill(lexiconMarker(lexicon))];
}

export function intentFeatures(tokens: readonly Token[], base: readonly string[], text: TextRules): string[] {
  const out = [...base];
  for (const token of tokens) {
    if (token.tag !== 'word') continue;
    for (const part of expand(token.value, text)) {
      const word = ` ${part} `;
      for (let i = 0; i + CHAR_GRAM <= word.length; i++) out.push(`#${word.slice(i, i + CHAR_GRAM)}`);
    }
  }
  return out;
}

function rank<L extends string>(
  computeOdds: NaiveBayesOdds,
  input: string[],
  labels: readonly L[],
  fallback: L,
): Probabilities<L> {
  const odds = new Map(computeOdds(input));
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

function rankProbabilities<L extends string>(labels: readonly L[], p: Float64Array): Probabilities<L> {
  return { ranked: labels.map((label, i) => ({ label, p: p[i] ?? 0 })).sort((a, b) => b.p - a.p) };
}

/** A trained model as data: what `npm run train:ai` writes to ./models/<lang>.json.gz. */
export interface ModelSnapshot {
  language: Language;
  /** The language's word lists; the lexicon keyed by stem. */
  rules: RulesData;
  intents: SoftmaxSnapshot;
  sentiments: string;
  /** Training vocabulary (folded) with counts, for typo correction. */
  vocabulary: [string, number][];
}

export type Lexicon = (tokens: readonly Token[]) => number;

export function lexiconFor(language: Language, data: RulesData, text: TextRules): Lexicon {
  if (language === 'en') {
    const english: EnglishLexicon = {
      words: new Map(Object.entries(data.lexicon)),
      bigrams: new Map(Object.entries(data.bigrams ?? {})),
    };
    return (tokens) => lexiconScore(tokens, english);
  }
  const rules: SentimentRules = {
    lexicon: new Map(Object.entries(data.lexicon)),
    intensifiers: new Set(data.intensifiers),
    dampeners: new Set(data.dampeners),
    contrast: new Set(data.contrast),
  };
  return (tokens) => rulesLexiconScore(tokens, text, rules);
}

export function loadLocalModel(snapshot: ModelSnapshot): LocalModel {
  const speller = Speller.from(snapshot.vocabulary);
  const text = textRules(snapshot.language, snapshot.rules);
  const lexicon = lexiconFor(snapshot.language, snapshot.rules, text);
  const intents = loadSoftmax(snapshot.intents);
  const intentLabels = snapshot.intents.labels as Intent[];
  const sentiments = naiveBayesOdds(snapshot.sentiments);
  return (raw) => {
    const tokens = tokenize(raw);
    const input = features(tokens, speller, text);
    const score = lexicon(tokens);
    return {
      intent: rankProbabilities(intentLabels, intents(intentFeatures(tokens, input, text))),
      sentiment: rank(sentiments, sentimentFeatures(input, score), SENTIMENTS, 'neutral'),
      lexicon: score,
    };
  };
}
