import { createHash } from 'node:crypto';
import { consume, fixedWindow, refund } from '../platform/counters';
import { tooManyRequests } from '../platform/errors';

/** Brute-force guard: at most 10 failed logins per (email, source IP) per 15-minute window. */
export const LOGIN_MAX_FAILURES = 10;
const WINDOW_SECONDS = 15 * 60;

function throttleKey(email: string, sourceIp: string, now: Date) {
  const window = fixedWindow(now, WINDOW_SECONDS);
  const who = createHash('sha256').update(`${email}|${sourceIp}`).digest('hex');
  return { key: `LOGIN#${who}#${window.start}`, window };
}

/**
 * Takes an attempt slot before the password is checked, so a burst of parallel guesses cannot all
 * slip in: the 11th concurrent attempt is refused. Successful logins give their slot back.
 */
export async function takeLoginAttempt(email: string, sourceIp: string, now: Date): Promise<{ succeeded(): Promise<void> }> {
  const { key, window } = throttleKey(email, sourceIp, now);
  const slot = await consume(key, { limit: LOGIN_MAX_FAILURES, expiresAtEpoch: window.resetAt + 60 });
  if (!slot.allowed) {
    throw tooManyRequests('login_throttled', 'Too many failed logins for this account from this address; try again later.', window.secondsLeft);
  }
  return { succeeded: () => refund(key) };
}
