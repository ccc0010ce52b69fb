/**
 * `npm run train:ai`: trains the local models from the data in functions/ai/data/ and writes them to
 * functions/ai/local/models/ (committed, and copied next to each AI handler when it is bundled, so
 * Lambda reads them instead of training at cold start):
 *
 * - `<lang>.json.gz` for each language: intent and sentiment classifiers from training/<lang>.jsonl, with
 *   the word lists and lexicon of rules/<lang>.json (plus the emoji of rules/emoji.json);
 * - `language-id.json.gz`: the language identifier, from the texts of every training set;
 * - `phone-numbers.json.gz`: libphonenumber's numbering plans ("min" metadata), read by the entity
 *   extractor on first use instead of sitting in the analyze handler's bundle;
 * - `snowball.json.gz`, `stemmer-es.json.gz` and `tokenizer.json.gz`: the Snowball stemmers' tables
 *   (vendored with them), the Spanish stemmer's dictionary of irregular forms, and wink-tokenizer's table
 *   of English contractions and emoji pattern, for the same reason.
 *
 * English scores sentiment with AFINN-165 and wink-sentiment's emoji and emoticons: those lists are copied
 * into en.json.gz here, so the handlers carry no word list in their code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { MetadataJson } from 'libphonenumber-js/core';
import { readEvalSet } from '../bench/ai-metrics';
import { PHONE_METADATA } from '../functions/ai/entities';
import { trainLanguageId, type LanguageIdSnapshot } from '../functions/ai/language';
import {
  SNOWBALL_TABLES,
  SPANISH_STEMS,
  type RulesData,
  type SnowballData,
  type StemmerDictionary,
} from '../functions/ai/local/languages';
import { modelFileName } from '../functions/ai/local/model-files';
import type { ModelSnapshot } from '../functions/ai/local/model';
import { trainLocalModel, type Example } from '../functions/ai/local/training';
import { TOKENIZER_DATA, type TokenizerData } from '../functions/ai/local/text';
import { LANGUAGES, type Language } from '../functions/ai/taxonomy';

const AI_DIR = fileURLToPath(new URL('../functions/ai/', import.meta.url));
export const DATA_DIR = join(AI_DIR, 'data');
export const MODELS_DIR = join(AI_DIR, 'local', 'models');

export const trainingSetPath = (language: Language) => join(DATA_DIR, 'training', `${language}.jsonl`);
export const trainingSet = (language: Language): Example[] => readEvalSet(trainingSetPath(language));

const readJson = <T>(...path: string[]) => JSON.parse(readFileSync(join(DATA_DIR, ...path), 'utf8')) as T;
const require = createRequire(import.meta.url);
type Scores = Record<string, number>;

/** wink-sentiment's English lists: AFINN-165 words (single words only: it never matches the others), its bigrams, emoji and emoticons. */
function englishLexicon(): Pick<RulesData, 'lexicon' | 'bigrams'> {
  const list = (name: string) => require(`wink-sentiment/src/${name}.js`) as Scores;
  const words = Object.entries(list('afinn-en-165')).filter(([w]) => !w.includes(' '));
  const pairs = Object.entries(require('wink-sentiment/src/afinn-en-165-2grams.js') as Record<string, Scores>);
  const sorted = (entries: [string, number][]) =>
    Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    lexicon: sorted([...words, ...Object.entries(list('emojis')), ...Object.entries(list('emoticons'))]),
    bigrams: sorted(
      pairs.flatMap(([a, next]) => Object.entries(next).map(([b, v]): [string, number] => [`${a} ${b}`, v])),
    ),
  };
}

/** The language's word lists; languages with their own lexicon also score the shared emoji. */
export function rulesData(language: Language): RulesData {
  const rules = readJson<RulesData>('rules', `${language}.json`);
  if (language === 'en') return { ...rules, ...englishLexicon() };
  return { ...rules, lexicon: { ...readJson<Record<string, number>>('rules', 'emoji.json'), ...rules.lexicon } };
}

export const trainModel = (language: Language): ModelSnapshot =>
  trainLocalModel(language, rulesData(language), trainingSet(language));

export const trainLanguageModel = (): LanguageIdSnapshot =>
  trainLanguageId(LANGUAGES.flatMap((language) => trainingSet(language).map(({ text }) => ({ text, language }))));

const phoneMetadata = () => require('libphonenumber-js/metadata.min.json') as MetadataJson;
const snowballTables = () => require('../functions/ai/local/vendor/snowball/tables.json') as SnowballData;
const spanishStems = () => require('@nlpjs/lang-es/src/dictionary-es.json') as StemmerDictionary;
const tokenizerData = (): TokenizerData => {
  // wink-tokenizer's own emoji-regex (9.x): the one at the top of node_modules is another major version.
  const emoji = (require('wink-tokenizer/node_modules/emoji-regex') as () => RegExp)();
  return {
    contractions: require('wink-tokenizer/src/eng-contractions.js') as TokenizerData['contractions'],
    emoji: { source: emoji.source, flags: emoji.flags },
  };
};

/** Data the text pipeline itself reads (training included), not trained. */
const textData = (): [name: string, data: SnowballData | StemmerDictionary | TokenizerData][] => [
  [SNOWBALL_TABLES, snowballTables()],
  [SPANISH_STEMS, spanishStems()],
  [TOKENIZER_DATA, tokenizerData()],
];

/** Every model file: its name (without extension) and its content. */
export function trainAll(): [
  name: string,
  model: ModelSnapshot | LanguageIdSnapshot | MetadataJson | SnowballData | StemmerDictionary | TokenizerData,
][] {
  return [
    ...LANGUAGES.map((l): [string, ModelSnapshot] => [l, trainModel(l)]),
    ['language-id', trainLanguageModel()],
    [PHONE_METADATA, phoneMetadata()],
    ...textData(),
  ];
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const write = (name: string, model: unknown) => {
    const path = join(MODELS_DIR, modelFileName(name));
    const data = gzipSync(JSON.stringify(model), { level: 9 });
    writeFileSync(path, data);
    console.log(`wrote ${path} (${Math.round(data.length / 1024)} KB)`);
  };
  // The text pipeline's data first: training reads it.
  for (const [name, data] of textData()) write(name, data);
  for (const [name, model] of trainAll()) write(name, model);
}
