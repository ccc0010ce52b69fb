/** The injectable clock: domain code takes `now` from here so tests can move time without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

let current: Clock = systemClock;

export const clock: Clock = { now: () => current.now() };

/** Tests only: replace the clock (pass nothing to restore the system clock). */
export function setClock(next: Clock = systemClock): void {
  current = next;
}

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
