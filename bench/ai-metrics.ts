/** Classification metrics for the AI evaluation (`npm run eval:ai`) and its regression test. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { identifyLanguage } from '../functions/ai/language';
import { classifyLocally } from '../functions/ai/local/provider';
import {
  INTENTS,
  SENTIMENTS,
  isLanguage,
  type Classification,
  type Intent,
  type Language,
  type SentimentLabel,
} from '../functions/ai/taxonomy';

export interface LabelledMessage {
  text: string;
  intent: Intent;
  sentiment: SentimentLabel;
}

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));
export const EVAL_SET_PATH = fixture('ai-eval.jsonl');
/** The held-out set of each language: English keeps its original name. */
export const evalSetPath = (language: Language) =>
  language === 'en' ? EVAL_SET_PATH : fixture(`ai-eval-${language}.jsonl`);
/** Short chat messages labelled with their language only: `{"text", "language"}` per line. */
export const LANGUAGE_EVAL_PATH = fixture('ai-lang-eval.jsonl');

export function readEvalSet(path = EVAL_SET_PATH): LabelledMessage[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const m = JSON.parse(line) as LabelledMessage;
      if (!INTENTS.includes(m.intent) || !SENTIMENTS.includes(m.sentiment))
        throw new Error(`bad label in ${path}: ${line}`);
      return m;
    });
}

export interface LanguageLabelled {
  text: string;
  language: Language;
}

export function readLanguageEvalSet(path = LANGUAGE_EVAL_PATH): LanguageLabelled[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const m = JSON.parse(line) as { text?: unknown; language?: unknown; lang?: unknown };
      const language = m.language ?? m.lang;
      if (typeof m.text !== 'string' || typeof language !== 'string' || !isLanguage(language))
        throw new Error(`bad line in ${path}: ${line}`);
      return { text: m.text, language };
    });
}

/** The quality targets, each of en, es, pt, fr and de (`npm run eval:ai` marks a missed one). */
export const TARGETS = { intentAccuracy: 0.9, sentimentMacroF1: 0.85, identification: 0.97 } as const;

/** The product's default language: language identification is scored as a tenant that kept it would see it. */
export const DEFAULT_LANGUAGE: Language = 'en';

export interface LanguageFigures {
  language: Language;
  predictions: { m: LabelledMessage; c: Classification }[];
  intents: Scores<Intent>;
  sentiments: Scores<SentimentLabel>;
  /** On the language's lines of ai-lang-eval.jsonl and the texts of its held-out set. */
  identification: { correct: number; total: number; accuracy: number };
}

/**
 * One language's figures on its held-out set: intent and sentiment classified as for a tenant whose
 * default is that language, language identification as for a tenant that kept the default (English).
 */
export function evaluateLanguage(language: Language, languageSet = readLanguageEvalSet()): LanguageFigures {
  const set = readEvalSet(evalSetPath(language));
  const predictions = set.map((m) => ({ m, c: classifyLocally(m.text, language) }));
  const texts = [...languageSet.filter((l) => l.language === language).map((l) => l.text), ...set.map((m) => m.text)];
  const correct = texts.filter((text) => identifyLanguage(text, DEFAULT_LANGUAGE) === language).length;
  return {
    language,
    predictions,
    intents: score(
      INTENTS,
      predictions.map(({ m, c }) => ({ actual: m.intent, predicted: c.intent.name })),
    ),
    sentiments: score(
      SENTIMENTS,
      predictions.map(({ m, c }) => ({ actual: m.sentiment, predicted: c.sentiment.label })),
    ),
    identification: { correct, total: texts.length, accuracy: correct / Math.max(1, texts.length) },
  };
}

export interface Scores<L extends string> {
  accuracy: number;
  macroF1: number;
  perLabel: Record<L, { precision: number; recall: number; f1: number; support: number }>;
  /** confusion[actual][predicted] */
  confusion: Record<L, Record<L, number>>;
}

export function score<L extends string>(
  labels: readonly L[],
  pairs: readonly { actual: L; predicted: L }[],
): Scores<L> {
  const confusion = Object.fromEntries(labels.map((a) => [a, Object.fromEntries(labels.map((p) => [p, 0]))])) as Record<
    L,
    Record<L, number>
  >;
  for (const { actual, predicted } of pairs) confusion[actual][predicted] += 1;
  const perLabel = {} as Scores<L>['perLabel'];
  for (const label of labels) {
    const tp = confusion[label][label];
    const predicted = labels.reduce((s, a) => s + confusion[a][label], 0);
    const support = labels.reduce((s, p) => s + confusion[label][p], 0);
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    perLabel[label] = {
      precision,
      recall,
      f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
      support,
    };
  }
  const present = labels.filter((l) => perLabel[l].support > 0);
  return {
    accuracy: pairs.filter((p) => p.actual === p.predicted).length / Math.max(1, pairs.length),
    macroF1: present.reduce((s, l) => s + perLabel[l].f1, 0) / Math.max(1, present.length),
    perLabel,
    confusion,
  };
}

export function confusionTable<L extends string>(
  labels: readonly L[],
  s: Scores<L>,
  abbreviate = (l: L) => l.slice(0, 5),
): string {
  const width = Math.max(...labels.map((l) => l.length));
  const head = `${'actual \\ predicted'.padEnd(width)} ${labels.map((l) => abbreviate(l).padStart(6)).join('')}`;
  const rows = labels.map(
    (a) => `${a.padEnd(width)} ${labels.map((p) => String(s.confusion[a][p] || '.').padStart(6)).join('')}`,
  );
  return [head, ...rows].join('\n');
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
