import { createHash } from 'node:crypto';
import { consume, currentCount, fixedWindow } from '../platform/counters';
import { tooManyRequests } from '../platform/errors';

/** Brute-force guard: at most 10 failed logins per (email, source IP) per 15 minutes. */
export const LOGIN_MAX_FAILURES = 10;
const WINDOW_SECONDS = 15 * 60;

function throttleKey(email: string, sourceIp: string, now: Date) {
  const window = fixedWindow(now, WINDOW_SECONDS);
  const who = createHash('sha256').update(`${email}|${sourceIp}`).digest('hex');
  return { key: `LOGIN#${who}#${window.start}`, window };
}

export async function assertLoginAllowed(email: string, sourceIp: string, now: Date): Promise<void> {
  const { key, window } = throttleKey(email, sourceIp, now);
  if ((await currentCount(key)) >= LOGIN_MAX_FAILURES) {
    throw tooManyRequests('login_throttled', 'Too many failed logins for this account from this address; try again later.', window.secondsLeft);
  }
}

export async function recordLoginFailure(email: string, sourceIp: string, now: Date): Promise<void> {
  const { key, window } = throttleKey(email, sourceIp, now);
  await consume(key, { expiresAtEpoch: window.resetAt + 60 });
}
