/**
 * Language identification for short chat messages, restricted to the languages the AI speaks: a naive
 * Bayes model over character n-grams (1–4, within word boundaries, accents kept: "ñ", "ção", "ß" are
 * strong clues) and whole words, trained by `npm run train:ai` on the customer messages of every
 * language's training set and shipped as data (local/models/language-id.json.gz, read on first use).
 * General-purpose detectors are trained on long formal text and guess wrong on "ok gracias" or
 * "tem horario amanha"; this one is trained on the messages it will see. A text too short to tell, or
 * one that reads as well in the tenant's default language, gets that default.
 */
import { readModelFile } from './local/model-files';
import { LANGUAGES, type Language } from './taxonomy';

export interface LanguageIdSnapshot {
  languages: Language[];
  /** Feature occurrences per language, in `languages` order. */
  totals: number[];
  /** Feature → its count per language. */
  features: Record<string, number[]>;
}

const SMOOTHING = 0.5;
/** Rarer features are dropped from the model: they tell little and cost load time. */
const MIN_COUNT = 3;
const MAX_GRAM = 4;
/** Fewer letters than this and there is nothing to go on. */
const MIN_LETTERS = 3;
/** Log-likelihood (nats) by which another language must beat the default to be chosen over it. */
const DEFAULT_MARGIN = 1.5;

/** Words (lower case, accents kept) with their n-grams, and the words themselves. */
export function languageFeatures(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/\p{L}+(?:'\p{L}+)*/gu) ?? []) {
    out.push(`w:${word}`);
    const padded = ` ${word} `;
    for (let n = 1; n <= MAX_GRAM; n++)
      for (let i = 0; i + n <= padded.length; i++) {
        const gram = padded.slice(i, i + n);
        if (gram !== ' ') out.push(gram);
      }
  }
  return out;
}

export function trainLanguageId(samples: readonly { text: string; language: Language }[]): LanguageIdSnapshot {
  const counts = new Map<string, number[]>();
  const totals = LANGUAGES.map(() => 0);
  for (const { text, language } of samples) {
    const l = LANGUAGES.indexOf(language);
    for (const f of languageFeatures(text)) {
      let row = counts.get(f);
      if (!row) counts.set(f, (row = LANGUAGES.map(() => 0)));
      row[l] = (row[l] ?? 0) + 1;
      totals[l] = (totals[l] ?? 0) + 1;
    }
  }
  const features = Object.fromEntries(
    [...counts]
      .filter(([, row]) => row.reduce((sum, n) => sum + n, 0) >= MIN_COUNT)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { languages: [...LANGUAGES], totals, features };
}

export type LanguageScorer = (text: string) => { language: Language; logLikelihood: number }[] | null;

export function loadLanguageId(snapshot: LanguageIdSnapshot): LanguageScorer {
  const features = new Map(Object.entries(snapshot.features));
  const vocabulary = features.size;
  const denominators = snapshot.totals.map((t) => Math.log(t + SMOOTHING * vocabulary));
  return (text) => {
    const letters = text.match(/\p{L}/gu)?.length ?? 0;
    if (letters < MIN_LETTERS) return null;
    const scores = snapshot.languages.map(() => 0);
    let known = 0;
    for (const f of languageFeatures(text)) {
      const row = features.get(f);
      if (!row) continue;
      known += 1;
      for (let l = 0; l < scores.length; l++)
        scores[l] = (scores[l] ?? 0) + Math.log((row[l] ?? 0) + SMOOTHING) - (denominators[l] ?? 0);
    }
    if (known === 0) return null;
    return snapshot.languages
      .map((language, l) => ({ language, logLikelihood: scores[l] ?? 0 }))
      .sort((a, b) => b.logLikelihood - a.logLikelihood);
  };
}

let scorer: LanguageScorer | undefined;
const languageScorer = (): LanguageScorer =>
  (scorer ??= loadLanguageId(readModelFile<LanguageIdSnapshot>('language-id')));

/** The language a ranking picks: the best, unless the default language reads about as well. */
export function pickLanguage(ranked: ReturnType<LanguageScorer>, fallback: Language): Language {
  const [best] = ranked ?? [];
  if (!ranked || !best) return fallback;
  const asDefault = ranked.find((r) => r.language === fallback);
  if (asDefault && best.logLikelihood - asDefault.logLikelihood < DEFAULT_MARGIN) return fallback;
  return best.language;
}

/** The language of `text` when no default would change it; null when the tenant's default decides. */
export function languageIfClear(text: string): Language | null {
  const ranked = languageScorer()(text);
  const [first, ...rest] = LANGUAGES.map((fallback) => pickLanguage(ranked, fallback));
  return rest.every((l) => l === first) ? (first ?? null) : null;
}

/** ISO 639-1 of `text`, one of LANGUAGES; `fallback` (the tenant's default) when it is too short to tell. */
export const identifyLanguage = (text: string, fallback: Language = 'en'): Language =>
  pickLanguage(languageScorer()(text), fallback);
