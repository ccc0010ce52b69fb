/**
 * The chaos mode's switches (docs/chaos.md): `CHAOS=1` turns it on, `CHAOS_SEED` makes its decisions
 * reproducible, and `CHAOS_FAULTS` overrides any intensity (`CHAOS_FAULTS=lostResponse=0,replicaLagMs=500`).
 * Every fault draws from its own seeded generator, so changing one fault's intensity does not move the
 * others' decisions.
 */
import { createHash } from 'node:crypto';

/** Intensities: a probability per occasion (0 turns a fault off), or a bound in ms or a count. */
export const DEFAULT_FAULTS = {
  /** Longest delay before a change reaches index queries and eventually consistent reads. */
  replicaLagMs: 2000,
  /** A TransactWriteItems cancelled with a TransactionConflict reason. */
  txConflict: 0.03,
  /** A TransactWriteItems cancelled with a ThrottlingError reason. */
  txThrottle: 0.02,
  /** Any other call throttled (ProvisionedThroughputExceededException; the SDK retries it). */
  throttle: 0.03,
  /** A BatchGetItem / BatchWriteItem that leaves part of its keys or writes unprocessed. */
  unprocessed: 0.3,
  /** A write that commits and then loses its response (the SDK sends the same call again). */
  lostResponse: 0.02,
  /** Virtual shards a stream's records are spread over (by item key), processed at once. */
  streamShards: 4,
  /** A stream batch handled successfully and delivered again. */
  streamRedeliver: 0.1,
  /** A stream record older than this goes to the on-failure destination unprocessed (6 h deployed). */
  streamMaxRecordAgeMs: 6 * 3600_000,
  /** A queue message delivered twice (a second receive of the same message, concurrently). */
  queueDuplicate: 0.05,
  /** A queue message whose visibility expires while its consumer still works on it. */
  queueVisibilityExpiry: 0.03,
  /** A received queue message put back unprocessed (throttled): the receive still counts. */
  queueThrottle: 0.03,
  /** Concurrent batches per queue at least this many. */
  queueConcurrency: 3,
  /** An asynchronous invocation run twice. */
  invokeDuplicate: 0.05,
  /** Longest extra wait in Lambda's internal queue before an asynchronous invocation runs. */
  invokeDelayMs: 1500,
  /** An asynchronous invocation that waits past its maximum event age and goes to its destination unrun. */
  invokeAgeOut: 0.03,
  /** A failed invocation's destination record lost (AWS: only when the destination refuses it). */
  invokeDropDestination: 0,
  /** A stream, scheduled or asynchronously invoked worker's invocation that times out part way: its remaining AWS calls never return. */
  timeout: 0.02,
  /**
   * The same for a queue worker's batch. Its messages come back only after the queue's visibility timeout
   * (150 s), longer than the end-to-end tests wait for a delivery, so it is off by default.
   */
  queueWorkerTimeout: 0,
  /** Longest time a worker runs before a timeout strikes it. */
  timeoutWithinMs: 300,
  /** Largest clock offset of an invocation, either way. */
  clockSkewMs: 1500,
};
export type ChaosFaults = typeof DEFAULT_FAULTS;
export type FaultName = keyof ChaosFaults;

export interface ChaosConfig {
  seed: string;
  faults: ChaosFaults;
}

/** The chaos configuration from the environment, or undefined when chaos is off. */
export function chaosFromEnv(env: NodeJS.ProcessEnv = process.env): ChaosConfig | undefined {
  if (!env.CHAOS || env.CHAOS === '0' || env.CHAOS === 'false') return undefined;
  const faults = { ...DEFAULT_FAULTS };
  for (const part of (env.CHAOS_FAULTS ?? '').split(',').filter((p) => p.trim())) {
    const [name = '', raw] = part.split('=').map((s) => s.trim());
    const value = Number(raw);
    if (!(name in faults) || !Number.isFinite(value) || value < 0)
      throw new Error(
        `CHAOS_FAULTS: "${part}" is not <fault>=<number ≥ 0> (faults: ${Object.keys(faults).join(', ')})`,
      );
    faults[name as FaultName] = value;
  }
  return { seed: env.CHAOS_SEED || '1', faults };
}

/** mulberry32: small, fast, and good enough to pick faults. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded draws, one generator per fault (or other named site). */
export class Chaos {
  private readonly generators = new Map<string, () => number>();
  constructor(readonly config: ChaosConfig) {}

  get faults(): ChaosFaults {
    return this.config.faults;
  }

  /** A number in [0, 1) from the site's own sequence. */
  random(site: string): number {
    let next = this.generators.get(site);
    if (!next) {
      const digest = createHash('sha256').update(`${this.config.seed}\u0000${site}`).digest();
      next = generator(digest.readUInt32BE(0));
      this.generators.set(site, next);
    }
    return next();
  }

  /** True with the fault's probability. */
  strikes(fault: FaultName, site: string = fault): boolean {
    const p = this.faults[fault];
    return p > 0 && this.random(site) < p;
  }

  /** An integer in [0, the fault's bound]. */
  upTo(fault: FaultName, site: string = fault): number {
    return Math.floor(this.random(site) * (this.faults[fault] + 1));
  }

  /** A whole number in [0, n). */
  below(n: number, site: string): number {
    return Math.floor(this.random(site) * n);
  }

  /** A seeded shuffle (Fisher–Yates), in place. */
  shuffle<T>(items: T[], site: string): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1, site);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

let active: Chaos | undefined;

/** Reads the environment once; the running chaos, or undefined when it is off. */
export function chaos(): Chaos | undefined {
  if (active === undefined) {
    const config = chaosFromEnv();
    if (config) active = new Chaos(config);
  }
  return active;
}

export const describeChaos = (c: Chaos): string =>
  `seed ${c.config.seed}; ${Object.entries(c.faults)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`;
