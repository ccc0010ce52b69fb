/**
 * Training of the local model (`npm run train:ai`), apart from ./model.ts: the handlers only load
 * trained models, so they bundle neither this nor wink's naive Bayes package.
 */
import naiveBayes from 'wink-naive-bayes-text-classifier';
import { INTENTS, type Intent, type Language, type SentimentLabel } from '../taxonomy';
import { textRules, type RulesData } from './languages';
import { intentFeatures, lexiconFor, sentimentFeatures, type ModelSnapshot } from './model';
import { trainSoftmax } from './softmax';
import { Speller, expand, features, fold, tokenize, type TextRules } from './text';

export interface Example {
  text: string;
  intent: Intent;
  sentiment: SentimentLabel;
}

/** Additive smoothing of the sentiment classifier's naive Bayes counts. */
const SMOOTHING = 0.25;

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

export function trainLocalModel(
  language: Language,
  written: RulesData,
  examples: readonly Example[],
  smoothingFactor = SMOOTHING,
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
  const sentiments = naiveBayes();
  sentiments.defineConfig({ considerOnlyPresence: true, smoothingFactor });
  const intentExamples: { input: string[]; label: Intent }[] = [];
  for (const example of examples) {
    const tokens = tokenize(example.text);
    const input = features(tokens, undefined, text);
    intentExamples.push({ input: intentFeatures(tokens, input, text), label: example.intent });
    sentiments.learn(sentimentFeatures(input, lexicon(tokens)), example.sentiment);
  }
  return {
    language,
    rules,
    intents: trainSoftmax(intentExamples, INTENTS),
    sentiments: sentiments.exportJSON(),
    vocabulary: speller.entries(),
  };
}
