/**
 * What differs between the languages the local model reads: the Snowball stemmer (Porter2 for English,
 * nlp.js's Snowball ports for the others, on folded words) and the word lists of
 * functions/ai/data/rules/<lang>.json (shorthand, negators, clause breaks, elisions, sentiment lexicon),
 * which travel inside each trained model file.
 */
import stemEnglish from 'wink-porter2-stemmer';
import type { Language } from '../taxonomy';
import { readModelFile } from './model-files';
import {
  snowballStemmer,
  type SnowballLanguage,
  type SnowballTables,
  type StemmerDictionary,
} from './vendor/snowball/index.cjs';
import { cachedStemmer, type TextRules } from './text';

/** A language's word lists as written in functions/ai/data/rules/<lang>.json. */
export interface RulesData {
  shorthand: Record<string, string>;
  negators: string[];
  clauseBreaks: string[];
  negationReach: number;
  elisions: Record<string, string>;
  /** Word (or emoji) → -5…5. English: AFINN-165 with wink-sentiment's emoji and emoticons, added in training. */
  lexicon: Record<string, number>;
  /** English only: AFINN's two-word phrases ("a b") → -5…5, added in training. */
  bigrams?: Record<string, number>;
  intensifiers: string[];
  dampeners: string[];
  contrast: string[];
}

/**
 * The Snowball stemmers' tables (./vendor/snowball/tables.json) and the Spanish stemmer's dictionary of
 * irregular forms ("estoy" → "estar"): data, copied beside the models by `npm run train:ai` and read
 * when a stemmer is first built.
 */
export const SNOWBALL_TABLES = 'snowball';
export type SnowballData = Record<SnowballLanguage, SnowballTables>;
export const SPANISH_STEMS = 'stemmer-es';
export type { StemmerDictionary };

function snowball(language: SnowballLanguage, dictionary?: StemmerDictionary) {
  const tables = readModelFile<SnowballData>(SNOWBALL_TABLES)[language];
  const stemmer = snowballStemmer(language, tables, dictionary);
  return (word: string) => stemmer.stemWord(word);
}

const STEMMERS: Record<Language, () => (word: string) => string> = {
  en: () => stemEnglish,
  es: () => snowball('es', readModelFile<StemmerDictionary>(SPANISH_STEMS)),
  pt: () => snowball('pt'),
  fr: () => snowball('fr'),
  de: () => snowball('de'),
};

export const stemmerFor = (language: Language): ((word: string) => string) => cachedStemmer(STEMMERS[language]());

const map = (o: Record<string, string>) => new Map(Object.entries(o));

export function textRules(language: Language, data: RulesData): TextRules {
  return {
    shorthand: map(data.shorthand),
    negators: new Set(data.negators),
    clauseBreaks: new Set(data.clauseBreaks),
    elisions: map(data.elisions),
    negationReach: data.negationReach,
    stem: stemmerFor(language),
  };
}
