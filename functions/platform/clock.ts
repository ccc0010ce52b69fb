/** Domain code never reads the time itself: it takes `now`, so tests can move time without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Handlers read the time once per request (RequestState.now) and pass it down as `now`. */
export const clock: Clock = systemClock;

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
