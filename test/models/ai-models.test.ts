import { readdirSync } from 'node:fs';
import naiveBayes from 'wink-naive-bayes-text-classifier';
import { textRules } from '../../functions/ai/local/languages';
import { lexiconFor, sentimentFeatures, type ModelSnapshot } from '../../functions/ai/local/model';
import { readModelFile, readModelText } from '../../functions/ai/local/model-files';
import { naiveBayesOdds } from '../../functions/ai/local/naive-bayes';
import { Speller, features, tokenize } from '../../functions/ai/local/text';
import { INTENTS, LANGUAGES } from '../../functions/ai/taxonomy';
import {
  EVAL_SET_PATH,
  TARGETS,
  evalSetPath,
  evaluateLanguage,
  readEvalSet,
  readLanguageEvalSet,
} from '../../bench/ai-metrics';
import { MODELS_DIR, trainAll, trainingSet } from '../../scripts/train-ai';

// The local AI models' data and quality: trains every model and evaluates it on the held-out sets.
// Seconds of CPU (training's hot loop keeps off vm-context globals: functions/ai/local/softmax.ts), but
// more than the unit project's budget, so it is its own jest project.

const normalised = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

describe('local model data', () => {
  it('keeps every held-out set disjoint from every training set', () => {
    const training = new Set(LANGUAGES.flatMap((l) => trainingSet(l).map((m) => normalised(m.text))));
    // Read through the evaluation's own readers: a missing held-out file fails here.
    const heldOut = [
      ...LANGUAGES.flatMap((l) => readEvalSet(evalSetPath(l)).map((m) => m.text)),
      ...readLanguageEvalSet().map((m) => m.text),
    ];
    expect(heldOut.filter((text) => training.has(normalised(text)))).toEqual([]);
  });

  it('has a few hundred labelled messages of every intent and language', () => {
    for (const language of LANGUAGES) {
      const set = trainingSet(language);
      expect({ language, enough: set.length >= 300 }).toEqual({ language, enough: true });
      for (const intent of INTENTS)
        expect({ language, intent, some: set.some((m) => m.intent === intent) }).toEqual({
          language,
          intent,
          some: true,
        });
    }
  });

  it('predicts sentiment with the very odds of wink, which trains the classifier', () => {
    for (const language of LANGUAGES) {
      const snapshot = readModelFile<ModelSnapshot>(language);
      const wink = naiveBayes();
      wink.importJSON(snapshot.sentiments);
      wink.consolidate();
      const odds = naiveBayesOdds(snapshot.sentiments);
      const rules = textRules(language, snapshot.rules);
      const speller = Speller.from(snapshot.vocabulary);
      const lexicon = lexiconFor(language, snapshot.rules, rules);
      const inputs = [
        ...readEvalSet(evalSetPath(language)).map(({ text }) => {
          const tokens = tokenize(text);
          return sentimentFeatures(features(tokens, speller, rules), lexicon(tokens));
        }),
        ['no-such-feature'],
        [],
      ];
      expect({ language, odds: inputs.map(odds) }).toEqual({ language, odds: inputs.map((i) => wink.computeOdds(i)) });
    }
  });

  it('ships the models trained from the data (run `npm run train:ai` after editing it)', () => {
    const trained = trainAll();
    expect(readdirSync(MODELS_DIR).sort()).toEqual(trained.map(([name]) => `${name}.json.gz`).sort());
    // Compared as the JSON text `npm run train:ai` writes, byte for byte: stricter than a deep equality of
    // the parsed objects, and a second instead of a minute of CPU for jest's equality over megabytes.
    for (const [name, model] of trained)
      expect({ name, matches: readModelText(name) === JSON.stringify(model) }).toEqual({ name, matches: true });
  });
});

describe.each(LANGUAGES)('quality targets on the held-out set: %s', (language) => {
  // Evaluated in the first test that needs it, so a missing held-out file fails the tests, not the suite.
  let evaluated: ReturnType<typeof evaluateLanguage> | undefined;
  const figures = () => (evaluated ??= evaluateLanguage(language));

  it('has at least 200 held-out messages', () => {
    expect(figures().predictions.length).toBeGreaterThanOrEqual(evalSetPath(language) === EVAL_SET_PATH ? 300 : 200);
  });
  it(`reads the intent of at least ${Math.round(TARGETS.intentAccuracy * 100)}% of them`, () => {
    expect(figures().intents.accuracy).toBeGreaterThanOrEqual(TARGETS.intentAccuracy);
  });
  it('reads their sentiment with a macro-F1 of at least 0.85', () => {
    expect(figures().sentiments.macroF1).toBeGreaterThanOrEqual(0.85);
  });
  it('identifies the language of at least 97% of short messages', () => {
    expect(figures().identification.total).toBeGreaterThan(figures().predictions.length);
    expect(figures().identification.accuracy).toBeGreaterThanOrEqual(0.97);
  });
});
