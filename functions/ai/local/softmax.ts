/**
 * Multinomial logistic regression over sparse binary features: the intent classifier. Naive Bayes counts
 * every word as independent evidence; this learns how much each feature really tells, which matters most
 * for the smaller training sets. Trained by `npm run train:ai`; inference is a sum of a few weights per
 * label.
 */

/** A trained classifier as data: weights stored as integers (WEIGHT_SCALE per unit) to keep the file small. */
export interface SoftmaxSnapshot {
  labels: string[];
  /** Feature names; the weights of feature i are weights[i * labels.length …]. The bias is feature 0. */
  features: string[];
  weights: number[];
}

export interface SoftmaxOptions {
  epochs: number;
  /** L2 penalty per update. */
  l2: number;
  /** AdaGrad's base learning rate. */
  rate: number;
  /** Training runs (each in its own example order) whose weights are averaged. */
  runs: number;
}

/** Chosen by 5-fold cross-validation on the training sets. */
export const SOFTMAX_DEFAULTS: SoftmaxOptions = { epochs: 30, l2: 1e-4, rate: 0.5, runs: 5 };
const WEIGHT_SCALE = 100;
// Bound once: training's inner loop looked `Math` up on the global object millions of times, which is ten
// times slower inside a vm context (the jest test that retrains the models) than in plain Node.
const { exp, floor, max: maximum, sqrt } = Math;
const BIAS = '';

/** A message's features, each once, with the bias; unknown ones dropped. */
function activeRows(input: readonly string[], index: ReadonlyMap<string, number>): number[] {
  const rows = new Set<number>([0]);
  for (const f of input) {
    const i = index.get(f);
    if (i !== undefined) rows.add(i);
  }
  return [...rows];
}

/**
 * Logits over 1/sqrt(features), so a long message is not more certain than a short one just for its length.
 * `unit` is the value of a weight of 1 (the stored weights are integers). Writes into `out` and returns it.
 */
function logits(
  rows: readonly number[],
  weights: ArrayLike<number>,
  labels: number,
  out: Float64Array,
  unit = 1,
): Float64Array {
  const scale = unit / sqrt(rows.length);
  out.fill(0);
  for (const r of rows) for (let c = 0; c < labels; c++) out[c] = (out[c] ?? 0) + (weights[r * labels + c] ?? 0);
  for (let c = 0; c < labels; c++) out[c] = (out[c] ?? 0) * scale;
  return out;
}

function softmaxInPlace(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of z) max = maximum(max, v);
  let sum = 0;
  for (let c = 0; c < z.length; c++) {
    z[c] = exp((z[c] ?? 0) - max);
    sum += z[c] ?? 0;
  }
  for (let c = 0; c < z.length; c++) z[c] = (z[c] ?? 0) / sum;
  return z;
}

function sgd(
  rows: readonly (readonly number[])[],
  targets: readonly number[],
  features: number,
  C: number,
  options: SoftmaxOptions,
  seed: number,
): Float64Array {
  const weights = new Float64Array(features * C);
  const squares = new Float64Array(features * C);
  const order = rows.map((_, i) => i);
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const p = new Float64Array(C);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (const n of order) {
      const active = rows[n] ?? [];
      const scale = 1 / sqrt(active.length);
      softmaxInPlace(logits(active, weights, C, p));
      for (let c = 0; c < C; c++) {
        const g = ((p[c] ?? 0) - (c === targets[n] ? 1 : 0)) * scale;
        for (const r of active) {
          const k = r * C + c;
          const step = g + options.l2 * (weights[k] ?? 0);
          squares[k] = (squares[k] ?? 0) + step * step;
          weights[k] = (weights[k] ?? 0) - (options.rate * step) / sqrt((squares[k] ?? 0) + 1e-8);
        }
      }
    }
  }
  return weights;
}

/**
 * Stochastic gradient descent with AdaGrad, in a fixed pseudo-random order, so training is reproducible;
 * the weights of `runs` such runs, each in its own order, averaged (steadier than any one run).
 */
export function trainSoftmax(
  examples: readonly { input: readonly string[]; label: string }[],
  labels: readonly string[],
  options: SoftmaxOptions = SOFTMAX_DEFAULTS,
): SoftmaxSnapshot {
  const index = new Map<string, number>([[BIAS, 0]]);
  for (const { input } of examples) for (const f of input) if (!index.has(f)) index.set(f, index.size);
  const C = labels.length;
  const rows = examples.map(({ input }) => activeRows(input, index));
  const targets = examples.map(({ label }) => labels.indexOf(label));
  const weights = new Float64Array(index.size * C);
  for (let run = 0; run < options.runs; run++) {
    const w = sgd(rows, targets, index.size, C, options, 1 + run * 7919);
    for (let k = 0; k < weights.length; k++) weights[k] = (weights[k] ?? 0) + (w[k] ?? 0) / options.runs;
  }
  // Features whose weights all round to zero tell nothing: left out of the file.
  const features: string[] = [];
  const kept: number[] = [];
  for (const [name, r] of index) {
    const row = Array.from({ length: C }, (_, c) => Math.round((weights[r * C + c] ?? 0) * WEIGHT_SCALE));
    if (r !== 0 && row.every((w) => w === 0)) continue;
    features.push(name);
    kept.push(...row);
  }
  return { labels: [...labels], features, weights: kept };
}

/** The classifier: a message's features to a probability per label (in the snapshot's label order). */
export function loadSoftmax(snapshot: SoftmaxSnapshot): (input: readonly string[]) => Float64Array {
  const index = new Map(snapshot.features.map((f, i) => [f, i]));
  const C = snapshot.labels.length;
  // The integer weights are used as read (no copy: loading stays fast), scaled once per message.
  return (input) =>
    softmaxInPlace(logits(activeRows(input, index), snapshot.weights, C, new Float64Array(C), 1 / WEIGHT_SCALE));
}
