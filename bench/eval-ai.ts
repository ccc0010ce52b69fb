/**
 * `npm run eval:ai`: scores the local model, per language, on the held-out sets in test/fixtures
 * (ai-eval.jsonl for English, ai-eval-<lang>.jsonl for the others, and ai-lang-eval.jsonl for language
 * identification; none shares a message with the training data) and times analysis in process.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { extractEntities } from '../functions/ai/entities';
import { identifyLanguage } from '../functions/ai/language';
import { classifyLocally, localModel } from '../functions/ai/local/provider';
import { INTENTS, LANGUAGES, SENTIMENTS, type Intent, type Language } from '../functions/ai/taxonomy';
import {
  LANGUAGE_EVAL_PATH,
  TARGETS,
  confusionTable,
  evalSetPath,
  evaluateLanguage,
  percentile,
  readLanguageEvalSet,
  type LanguageFigures,
} from './ai-metrics';

const now = new Date();
const f = (n: number) => n.toFixed(3);
const loadMs: Partial<Record<Language, number>> = {};
for (const language of LANGUAGES) {
  const started = performance.now();
  localModel(language);
  identifyLanguage('warm up', language);
  loadMs[language] = performance.now() - started;
}

const languageSet = existsSync(LANGUAGE_EVAL_PATH) ? readLanguageEvalSet() : [];
const figures: LanguageFigures[] = [];
const p50: Partial<Record<Language, number>> = {};
const allTimings: number[] = [];
for (const language of LANGUAGES) {
  if (!existsSync(evalSetPath(language))) {
    console.log(`${language}: no held-out set at ${evalSetPath(language)}`);
    continue;
  }
  const figure = evaluateLanguage(language, languageSet);
  figures.push(figure);
  // Latency of a full analysis (language, classification and entities), after a warm-up pass.
  const texts = figure.predictions.map(({ m }) => m.text);
  for (const text of texts) await extractEntities(text, now, 'Europe/Berlin', language);
  const timings: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const text of texts) {
      const t0 = performance.now();
      const c = classifyLocally(text, language);
      await extractEntities(text, now, 'Europe/Berlin', c.language);
      timings.push(performance.now() - t0);
    }
  }
  timings.sort((a, b) => a - b);
  allTimings.push(...timings);
  p50[language] = percentile(timings, 50);
}
allTimings.sort((a, b) => a - b);

// The longest message (4,096 characters) in shapes that used to cost the square of their length.
const LONG_TEXTS = [
  'ab'.repeat(2048),
  '1'.repeat(4096),
  '!'.repeat(4096),
  'a-'.repeat(2048),
  'x.'.repeat(2048),
  'I want to book tomorrow at 3pm, '.repeat(128),
];
const longMs: number[] = [];
for (const text of LONG_TEXTS) {
  const t0 = performance.now();
  classifyLocally(text);
  await extractEntities(text, now, 'Europe/Berlin', 'en');
  longMs.push(performance.now() - t0);
}

const col = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(9))).join('');
console.log(`AI evaluation: local provider, held-out messages per language`);
console.log(
  `language identification: ${languageSet.length} messages of ${LANGUAGE_EVAL_PATH.split('/').pop()}` +
    `${languageSet.length ? '' : ' (missing)'} plus each held-out message, with the default language en\n`,
);
console.log(col(['', ...figures.map((x) => x.language)]));
console.log(col(['held-out messages', ...figures.map((x) => String(x.predictions.length))]));
console.log(col(['intent accuracy', ...figures.map((x) => f(x.intents.accuracy))]), '  (target >= 0.90)');
const under = figures.filter((x) => x.intents.accuracy < TARGETS.intentAccuracy).map((x) => x.language);
if (under.length)
  console.log(col(['', ...figures.map((x) => (under.includes(x.language) ? 'MISSED' : ''))]), '  (below the target)');
console.log(col(['intent macro-F1', ...figures.map((x) => f(x.intents.macroF1))]));
console.log(col(['sentiment accuracy', ...figures.map((x) => f(x.sentiments.accuracy))]));
console.log(col(['sentiment macro-F1', ...figures.map((x) => f(x.sentiments.macroF1))]), '  (target >= 0.85)');
console.log(col(['language id accuracy', ...figures.map((x) => f(x.identification.accuracy))]), '  (target >= 0.97)');
console.log(col(['language id messages', ...figures.map((x) => String(x.identification.total))]));
console.log(col(['analyze p50 (ms)', ...figures.map((x) => f(p50[x.language] ?? NaN))]), '  (target <= 2 ms)');
console.log(col(['model load (ms)', ...figures.map((x) => (loadMs[x.language] ?? NaN).toFixed(1))]));
console.log(`\nanalyze p99, all languages  ${f(percentile(allTimings, 99))} ms`);
console.log(`analyze 4,096 chars         ${f(Math.max(...longMs))} ms worst of ${LONG_TEXTS.length} long shapes`);
const short: Record<Intent, string> = {
  greeting: 'greet',
  book_appointment: 'book',
  reschedule_booking: 'resch',
  cancel_booking: 'cancl',
  booking_status: 'status',
  pricing: 'price',
  opening_hours: 'hours',
  location: 'where',
  payment_issue: 'pay',
  complaint: 'compl',
  request_human: 'human',
  thanks: 'thank',
  goodbye: 'bye',
  other: 'other',
};
if (process.argv.includes('--confusion'))
  for (const { language, intents, sentiments } of figures) {
    console.log(`\n${language}: intent per label (precision / recall / F1)`);
    for (const l of INTENTS)
      console.log(
        `  ${l.padEnd(20)} ${f(intents.perLabel[l].precision)} / ${f(intents.perLabel[l].recall)} / ${f(intents.perLabel[l].f1)}`,
      );
    console.log(`\n${language}: intent confusion matrix`);
    console.log(confusionTable(INTENTS, intents, (l) => short[l]));
    console.log(`\n${language}: sentiment confusion matrix`);
    console.log(confusionTable(SENTIMENTS, sentiments, (l) => l.slice(0, 3)));
  }
