/**
 * Chaos for whole invocations: a clock skewed per invocation, and a Lambda timeout part way through a
 * worker's invocation, after which none of its remaining AWS calls returns (Lambda freezes or ends the
 * execution environment; a call in flight may still have reached the service).
 */
import type { Store } from '../invocations';
import type { Chaos } from './config';

const SKEW = Symbol('chaosClockSkew');
const FROZEN = Symbol('chaosFrozen');

/** What never settles: a call of an invocation that has timed out. */
export const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

export const isFrozen = (store: Store | undefined): boolean => store?.[FROZEN] === true;

/**
 * Replaces `Date` with one whose clock (`Date.now()`, `new Date()`) runs ahead of or behind the real one
 * by the running invocation's own offset, as separate Lambda hosts' clocks do. Dates built from a value
 * are unchanged; timers are unaffected.
 */
export function skewClocks(currentStore: () => Store | undefined): void {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const offset = () => (currentStore()?.[SKEW] as number | undefined) ?? 0;
  // A subclass keeps `instanceof Date`, the prototype's methods and the static parse/UTC.
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(realNow() + offset());
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return realNow() + offset();
    }
  }
  // Called as a function, Date returns the current time as a string.
  const DateFunction = new Proxy(SkewedDate, {
    apply: () => new SkewedDate().toString(),
  });
  globalThis.Date = DateFunction as DateConstructor;
}

/** Gives a new invocation its clock offset, a few hundred ms to seconds either way. */
export function skewInvocation(chaos: Chaos, store: Store): void {
  const bound = chaos.faults.clockSkewMs;
  if (bound > 0) store[SKEW] = Math.round((chaos.random('clockSkew') * 2 - 1) * bound);
}

/**
 * Runs a worker invocation that may time out: then it fails as Lambda reports a timeout, and from that
 * moment its remaining calls never return (see sdkTimeoutMiddleware).
 */
export function mayTimeOut<R>(
  chaos: Chaos,
  fault: 'timeout' | 'queueWorkerTimeout',
  store: Store,
  functionName: string,
  run: () => Promise<R>,
): Promise<R> {
  if (!chaos.strikes(fault, `timeout:${functionName}`)) return run();
  const after = chaos.upTo('timeoutWithinMs', `timeoutAt:${functionName}`);
  const result = run();
  result.catch(() => undefined);
  return Promise.race([
    result,
    new Promise<R>((_, reject) =>
      setTimeout(() => {
        store[FROZEN] = true;
        console.error(`[chaos] ${functionName} timed out after ${after} ms`);
        reject(Object.assign(new Error(`Task timed out (chaos, after ${after} ms)`), { name: 'Sandbox.Timedout' }));
      }, after),
    ),
  ]);
}

/** Wraps `fetch` so that a timed-out invocation's outbound HTTP calls never return either. */
export function freezeFetch(currentStore: () => Store | undefined): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    if (isFrozen(currentStore())) return never();
    const response = await realFetch(...args);
    if (isFrozen(currentStore())) return never();
    return response;
  };
}
