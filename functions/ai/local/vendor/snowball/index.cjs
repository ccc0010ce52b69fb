/** nlp.js's Snowball stemmers for the languages other than English (see each file for its origin). */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, like the stemmers */
const { Among } = require('./base.cjs');

/**
 * Each language's stemmer is required when its first instance is built, so a process loads only the
 * languages it meets. By subpath import (package.json `imports`): deployed, each is a bundle of its own
 * beside the function's (catalog/bundling.ts BUNDLES_BESIDE).
 */
const STEMMERS = {
  de: () => require('#stemmer-de'),
  es: () => require('#stemmer-es'),
  fr: () => require('#stemmer-fr'),
  pt: () => require('#stemmer-pt'),
};

/**
 * A language's stemmer. Its tables (./tables.json: Among lists `a_*` as [string, substring index,
 * result], character groupings `g_*`) are data read from beside the models; they go on the class,
 * where the generated code looks for them, before its first instance is built.
 */
function snowballStemmer(language, tables, dictionary) {
  const Stemmer = STEMMERS[language]();
  for (const [name, table] of Object.entries(tables)) {
    Stemmer[name] = name.startsWith('a_')
      ? table.map(([s, substring, result]) => new Among(s, substring, result))
      : table;
  }
  return new Stemmer(dictionary);
}

// Shorthand properties: Node finds the named exports of an imported CommonJS module only in this form.
module.exports = { snowballStemmer };
