/**
 * `npm run eval:ai`: scores the local model on the held-out set in test/fixtures/ai-eval.jsonl (which
 * shares nothing with the training set) and times analysis in process.
 */
import { performance } from 'node:perf_hooks';
import { extractEntities } from '../functions/ai/entities';
import { classifyLocally, localModel } from '../functions/ai/local/provider';
import { INTENTS, SENTIMENTS, type Intent } from '../functions/ai/taxonomy';
import { confusionTable, percentile, readEvalSet, score } from './ai-metrics';

const set = readEvalSet();
const started = performance.now();
localModel();
const loadMs = performance.now() - started;

const now = new Date();
const predictions = set.map((m) => ({ m, c: classifyLocally(m.text) }));
const intents = score(
  INTENTS,
  predictions.map(({ m, c }) => ({ actual: m.intent, predicted: c.intent.name })),
);
const sentiments = score(
  SENTIMENTS,
  predictions.map(({ m, c }) => ({ actual: m.sentiment, predicted: c.sentiment.label })),
);

// Latency of a full analysis (classification and entities), after a warm-up pass.
for (const m of set) extractEntities(m.text, now, 'Europe/Berlin');
const timings: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const m of set) {
    const t0 = performance.now();
    classifyLocally(m.text);
    extractEntities(m.text, now, 'Europe/Berlin');
    timings.push(performance.now() - t0);
  }
}
timings.sort((a, b) => a - b);

// The longest message (4,096 characters) in shapes that used to cost the square of their length.
const LONG_TEXTS = [
  'ab'.repeat(2048),
  '1'.repeat(4096),
  '!'.repeat(4096),
  'a-'.repeat(2048),
  'x.'.repeat(2048),
  'I want to book tomorrow at 3pm, '.repeat(128),
];
const longMs = LONG_TEXTS.map((text) => {
  const t0 = performance.now();
  classifyLocally(text);
  extractEntities(text, now, 'Europe/Berlin');
  return performance.now() - t0;
});

const f = (n: number) => n.toFixed(3);
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
console.log(`AI evaluation: local provider, ${set.length} held-out messages`);
console.log(`model load (training) ${loadMs.toFixed(1)} ms\n`);
console.log(`intent accuracy      ${f(intents.accuracy)}   (target >= 0.90)`);
console.log(`intent macro-F1      ${f(intents.macroF1)}`);
console.log(`sentiment accuracy   ${f(sentiments.accuracy)}`);
console.log(`sentiment macro-F1   ${f(sentiments.macroF1)}   (target >= 0.85)`);
console.log(`analyze p50          ${f(percentile(timings, 50))} ms   (target <= 5 ms)`);
console.log(`analyze p99          ${f(percentile(timings, 99))} ms`);
console.log(`analyze 4,096 chars  ${f(Math.max(...longMs))} ms worst of ${LONG_TEXTS.length} long shapes\n`);
console.log('Intent per label (precision / recall / F1):');
for (const l of INTENTS)
  console.log(
    `  ${l.padEnd(20)} ${f(intents.perLabel[l].precision)} / ${f(intents.perLabel[l].recall)} / ${f(intents.perLabel[l].f1)}`,
  );
console.log('\nIntent confusion matrix:');
console.log(confusionTable(INTENTS, intents, (l) => short[l]));
console.log('\nSentiment confusion matrix:');
console.log(confusionTable(SENTIMENTS, sentiments, (l) => l.slice(0, 3)));
if (process.argv.includes('--errors')) {
  console.log('\nMisclassified:');
  for (const { m, c } of predictions) {
    if (c.intent.name !== m.intent || c.sentiment.label !== m.sentiment) {
      console.log(
        `  ${JSON.stringify(m.text)}\n    intent ${m.intent} -> ${c.intent.name} (${c.intent.confidence}), sentiment ${m.sentiment} -> ${c.sentiment.label} (${c.sentiment.confidence})`,
      );
    }
  }
}
