/** nlp.js's Snowball stemmers for the languages other than English (see each file for its origin). */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, like the stemmers */
const { Among } = require('./base.cjs');
const StemmerDe = require('./stemmer-de.cjs');
const StemmerEs = require('./stemmer-es.cjs');
const StemmerFr = require('./stemmer-fr.cjs');
const StemmerPt = require('./stemmer-pt.cjs');

const STEMMERS = { de: StemmerDe, es: StemmerEs, fr: StemmerFr, pt: StemmerPt };

/**
 * A language's stemmer. Its tables (./tables.json: Among lists `a_*` as [string, substring index,
 * result], character groupings `g_*`) are data read from beside the models; they go on the class,
 * where the generated code looks for them, before its first instance is built.
 */
function snowballStemmer(language, tables, dictionary) {
  const Stemmer = STEMMERS[language];
  for (const [name, table] of Object.entries(tables)) {
    Stemmer[name] = name.startsWith('a_')
      ? table.map(([s, substring, result]) => new Among(s, substring, result))
      : table;
  }
  return new Stemmer(dictionary);
}

// Shorthand properties: Node finds the named exports of an imported CommonJS module only in this form.
module.exports = { snowballStemmer };
