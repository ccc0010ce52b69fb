/** nlp.js's Snowball stemmers for the languages other than English (see each file for its origin). */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, like the stemmers */
const StemmerDe = require('./stemmer-de.cjs');
const StemmerEs = require('./stemmer-es.cjs');
const StemmerFr = require('./stemmer-fr.cjs');
const StemmerPt = require('./stemmer-pt.cjs');

// Shorthand properties: Node finds the named exports of an imported CommonJS module only in this form.
module.exports = { StemmerDe, StemmerEs, StemmerFr, StemmerPt };
