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
 * Flood guard: every attempt costs an scrypt hash, so one source IP may try at most this many logins a
 * minute across all emails (`LOGIN_IP_LIMIT_PER_MINUTE`, default 30). Successes count too.
 */
export const DEFAULT_LOGIN_IP_LIMIT = 30;
const IP_WINDOW_SECONDS = 60;

export function loginIpLimit(): number {
  const configured = Number(process.env.LOGIN_IP_LIMIT_PER_MINUTE);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_LOGIN_IP_LIMIT;
}

async function takeIpSlot(sourceIp: string, now: Date): Promise<void> {
  const window = fixedWindow(now, IP_WINDOW_SECONDS);
  const who = createHash('sha256').update(sourceIp).digest('hex');
  const slot = await consume(`LOGINIP#${who}#${window.start}`, {
    limit: loginIpLimit(),
    expiresAtEpoch: window.resetAt + 60,
  });
  if (!slot.allowed) {
    throw tooManyRequests(
      'login_rate_limited',
      'Too many login attempts from this address; try again in a minute.',
      window.secondsLeft,
    );
  }
}

/**
 * Takes an attempt slot before the password is checked, so a burst of parallel guesses cannot all
 * slip in: the 11th concurrent attempt is refused. Successful logins give their slot back. The source
 * IP's slot is taken first, so a flood is refused before any per-email counting.
 */
export async function takeLoginAttempt(
  email: string,
  sourceIp: string,
  now: Date,
): Promise<{ succeeded(): Promise<void> }> {
  await takeIpSlot(sourceIp, now);
  const { key, window } = throttleKey(email, sourceIp, now);
  const slot = await consume(key, { limit: LOGIN_MAX_FAILURES, expiresAtEpoch: window.resetAt + 60 });
  if (!slot.allowed) {
    throw tooManyRequests(
      'login_throttled',
      'Too many failed logins for this account from this address; try again later.',
      window.secondsLeft,
    );
  }
  return { succeeded: () => refund(key) };
}
