/**
 * The sentiment classifier's predictions: wink-naive-bayes-text-classifier's computeOdds() over the
 * model it exports. Training uses the package itself (./training.ts); predicting needs only this, so
 * the handlers bundle this instead of the package with its learning, evaluation and helpers. The same
 * arithmetic in the same order gives the very same odds (test/unit/ai.test.ts compares them).
 */

/** What wink's exportJSON() writes. */
type Exported = [
  config: { smoothingFactor: number },
  samples: Record<string, number>,
  count: Record<string, Record<string, number>>,
  words: Record<string, number>,
  vocabulary: string[],
];

/** Each label with its log-odds, best first; `[['unknown', 0]]` when no token is in the vocabulary. */
export type NaiveBayesOdds = (tokens: readonly string[]) => [label: string, odds: number][];

export function naiveBayesOdds(exported: string): NaiveBayesOdds {
  const [config, samples, count, words, vocabulary] = JSON.parse(exported) as Exported;
  const labels = Object.keys(samples);
  const voc = new Set(vocabulary);
  const smoothing = config.smoothingFactor;
  // Own properties only, where wink's lookup of "constructor" would find Object's (no trained vocabulary
  // holds such a word, so the odds are the same).
  const countOf = (label: string, word: string): number => {
    const counts = count[label] ?? {};
    return Object.hasOwn(counts, word) ? (counts[word] ?? 0) : 0;
  };
  const logRatio = (occurrences: number, total: number) =>
    smoothing > 0
      ? Math.log2(occurrences + smoothing) - Math.log2(total + voc.size * smoothing)
      : occurrences
        ? Math.log2(occurrences) - Math.log2(total + voc.size)
        : 0;
  const logLikelihood = (word: string, label: string) => logRatio(countOf(label, word), words[label] ?? 0);
  const inverseLogLikelihood = (word: string, label: string) => {
    let occurrences = 0;
    let total = 0;
    for (const other of labels) {
      if (other === label) continue;
      total += words[other] ?? 0;
      occurrences += countOf(other, word);
    }
    return logRatio(occurrences, total);
  };
  const odds = (tokens: readonly string[], label: string) => {
    const known = tokens.filter((t) => voc.has(t));
    if (known.length === 0) return 0;
    let sum = 0;
    let notInLabel = 0;
    for (const l of labels) {
      sum += samples[l] ?? 0;
      notInLabel += l === label ? 0 : (samples[l] ?? 0);
    }
    let lh = 0;
    let ilh = 0;
    for (const token of known) {
      lh += logLikelihood(token, label);
      ilh += lh === 0 ? 0 : inverseLogLikelihood(token, label);
    }
    if (lh !== 0) {
      lh += Math.log2(samples[label] ?? 0) - Math.log2(sum);
      ilh += Math.log2(notInLabel) - Math.log2(sum);
    }
    return lh - ilh;
  };
  return (tokens) => {
    const all = labels.map((label): [string, number] => [label, odds(tokens, label)]);
    // wink's order: descending, ties kept in label order.
    all.sort((a, b) => (b[1] > a[1] ? 1 : b[1] === a[1] ? 0 : -1));
    return all[0]?.[1] ? all : [['unknown', 0]];
  };
}
