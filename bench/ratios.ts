/**
 * Figures measured against a floor in the same run. A shared or slower machine moves both sides alike,
 * so the ratio holds where a fixed number (50 ms, 500 a second) would be met or missed by chance.
 *
 * Each figure is measured in pairs, the project and its floor one after the other, the order alternating
 * from pair to pair so that a drift in the machine's load falls on both sides. The ratio reported is the
 * median of the pairs' ratios, with their spread (lowest and highest).
 */

export interface Spread {
  median: number;
  low: number;
  high: number;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const spreadOf = (values: number[]): Spread => ({
  median: median(values),
  low: Math.min(...values),
  high: Math.max(...values),
});

/** A value at percentile `p` (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? NaN;
}

export interface Paired<T> {
  project: T[];
  floor: T[];
}

/**
 * Runs `project` and `floor` `pairs` times each, alternating which goes first; `project` and `floor` may
 * return anything (a time, a rate, a record of several figures).
 */
export async function alternate<T>(
  pairs: number,
  project: () => Promise<T> | T,
  floor: () => Promise<T> | T,
): Promise<Paired<T>> {
  const out: Paired<T> = { project: [], floor: [] };
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      out.project.push(await project());
      out.floor.push(await floor());
    } else {
      out.floor.push(await floor());
      out.project.push(await project());
    }
  }
  return out;
}

/** The pairs' ratios project / floor, as a spread. */
export const ratioOf = (project: number[], floor: number[]): Spread =>
  spreadOf(project.map((p, i) => p / (floor[i] as number)));

/** A target on a ratio: at most `max` (a time) or at least `min` (a rate). */
export type RatioTarget = { max: number } | { min: number };

export const meets = (ratio: Spread, target: RatioTarget): boolean =>
  'max' in target ? ratio.median <= target.max : ratio.median >= target.min;

const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** `1.07× (0.98–1.15)`: the median ratio and the pairs' spread. */
export const showRatio = (r: Spread): string => `${fixed(r.median, 2)}× (${fixed(r.low, 2)}–${fixed(r.high, 2)})`;

export const showTarget = (t: RatioTarget): string => ('max' in t ? `<= ${t.max}×` : `>= ${t.min}×`);

/** `ok` or `OVER`, with the target. */
export const verdict = (r: Spread, t: RatioTarget): string => `${showTarget(t)} ${meets(r, t) ? 'ok' : 'OVER'}`;

/** Rounded for a table cell. */
export const cell = (n: number, digits = 1): string => fixed(n, digits);
