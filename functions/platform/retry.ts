/**
 * Optimistic writes (read, change, write conditionally on what was read) lose when another writer gets
 * in first; the answer is to read again and retry. One helper for all of them.
 */
export interface RetryOptions {
  /** At most this many attempts, the first included. */
  attempts: number;
  /** Whether an error means "another writer won": anything else is thrown at once. */
  retryable: (error: unknown) => boolean;
  /** What to throw when the last attempt lost too (default: its error). */
  exhausted?: (error: unknown) => unknown;
  /** Tests pass their own to skip the pauses. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The longest pause, as a doubling of 10 ms (default 5: 320 ms). */
  longestDoubling?: number;
}

/** The pause before attempt `attempt + 1`: jittered, doubling from 20 ms up to 320 ms (or 10 ms × 2^longest). */
export const backoffMs = (attempt: number, random: () => number = Math.random, longest = 5): number =>
  random() * 10 * 2 ** Math.min(Math.max(attempt, 1), longest);

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `operation` (given the attempt number, from 1) until it succeeds, retrying errors `retryable`
 * accepts. The random, growing pause spreads a burst of writers (several inbound messages at once, many
 * bookings of one resource) so each gets its turn.
 */
export async function retryOnConflict<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const sleep = options.sleep ?? pause;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!options.retryable(error)) throw error;
      if (attempt >= options.attempts) throw options.exhausted ? options.exhausted(error) : error;
      await sleep(backoffMs(attempt, options.random, options.longestDoubling));
    }
  }
}
