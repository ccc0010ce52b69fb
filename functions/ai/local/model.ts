/**
 * The local model of one language: two naive Bayes classifiers (wink), one for intent and one for
 * sentiment, trained on functions/ai/data/training/<lang>.jsonl by `npm run train:ai`, which writes the
 * result to ./models/<lang>.json.gz. Loading that takes a few milliseconds where training takes a
 * hundred; a test fails if the two ever disagree.
 */
import type { Token } from 'wink-tokenizer';
import naiveBayes, { type NaiveBayes } from 'wink-naive-bayes-text-classifier';
import { INTENTS, SENTIMENTS, type Intent, type Language, type SentimentLabel } from '../taxonomy';
import { lexiconScore, rulesLexiconScore, type EnglishLexicon, type SentimentRules } from './lexicon';
import { textRules, type RulesData } from './languages';
import { Speller, expand, features, fold, tokenize, type TextRules } from './text';

export interface Example {
  text: string;
  intent: Intent;
  sentiment: SentimentLabel;
}

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
 * Additive smoothing of the naive Bayes counts, chosen by cross-validation on each training set: the
 * intents of the smaller sets of the other languages do better when a word unseen with a label costs it more.
 */
const SMOOTHING = 0.25;
const INTENT_SMOOTHING: Record<Language, number> = { en: 0.25, es: 0.1, pt: 0.1, fr: 0.1, de: 0.1 };
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

/** A trained model as data: what `npm run train:ai` writes to ./models/<lang>.json.gz. */
export interface ModelSnapshot {
  language: Language;
  /** The language's word lists; the lexicon keyed by stem. */
  rules: RulesData;
  intents: string;
  sentiments: string;
  /** Training vocabulary (folded) with counts, for typo correction. */
  vocabulary: [string, number][];
}

/** The lexicon's words stemmed the way message words will be, so every inflection finds its entry. */
function stemmedLexicon(data: RulesData, text: TextRules): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [word, score] of Object.entries(data.lexicon)) {
    const parts = expand(word, text);
    const key = /\p{L}/u.test(word) && parts.length === 1 ? text.stem(parts[0] ?? word) : word;
    out[key] = score;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const foldAll = (words: readonly string[]) => words.map(fold);

type Lexicon = (tokens: readonly Token[]) => number;

function lexiconFor(language: Language, data: RulesData, text: TextRules): Lexicon {
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

export function trainLocalModel(
  language: Language,
  written: RulesData,
  examples: readonly Example[],
  smoothingFactor = SMOOTHING,
  intentSmoothing = INTENT_SMOOTHING[language],
): ModelSnapshot {
  const base: RulesData = {
    ...written,
    negators: foldAll(written.negators),
    clauseBreaks: foldAll(written.clauseBreaks),
    intensifiers: foldAll(written.intensifiers),
    dampeners: foldAll(written.dampeners),
    contrast: foldAll(written.contrast),
  };
  const text = textRules(language, base);
  // English words are scored as written (AFINN lists inflections itself); the others by stem.
  const rules: RulesData = language === 'en' ? base : { ...base, lexicon: stemmedLexicon(base, text) };
  const lexicon = lexiconFor(language, rules, text);
  const speller = new Speller();
  for (const { text: raw } of examples)
    for (const token of tokenize(raw))
      if (token.tag === 'word') for (const w of expand(token.value, text)) speller.add(w);
  const intents = naiveBayes();
  const sentiments = naiveBayes();
  intents.defineConfig({ considerOnlyPresence: true, smoothingFactor: intentSmoothing });
  sentiments.defineConfig({ considerOnlyPresence: true, smoothingFactor });
  for (const example of examples) {
    const tokens = tokenize(example.text);
    const input = features(tokens, undefined, text);
    intents.learn(input, example.intent);
    sentiments.learn(sentimentFeatures(input, lexicon(tokens)), example.sentiment);
  }
  return {
    language,
    rules,
    intents: intents.exportJSON(),
    sentiments: sentiments.exportJSON(),
    vocabulary: speller.entries(),
  };
}

export function loadLocalModel(snapshot: ModelSnapshot): LocalModel {
  const speller = Speller.from(snapshot.vocabulary);
  const text = textRules(snapshot.language, snapshot.rules);
  const lexicon = lexiconFor(snapshot.language, snapshot.rules, text);
  const intents = naiveBayes();
  const sentiments = naiveBayes();
  intents.importJSON(snapshot.intents);
  sentiments.importJSON(snapshot.sentiments);
  intents.consolidate();
  sentiments.consolidate();
  return (raw) => {
    const tokens = tokenize(raw);
    const input = features(tokens, speller, text);
    const score = lexicon(tokens);
    return {
      intent: rank(intents, input, INTENTS, 'other'),
      sentiment: rank(sentiments, sentimentFeatures(input, score), SENTIMENTS, 'neutral'),
      lexicon: score,
    };
  };
}
