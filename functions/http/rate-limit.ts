import { consume, consumeSharded, fixedWindow, shardShares } from '../platform/counters';
import { tooManyRequests } from '../platform/errors';
import { hourlyLimit, type Tenant } from '../tenants/tenant';
import {
  stateOf,
  type HttpMiddleware,
  type HttpRequest,
  type RateLimitState,
  type RequestState,
} from './request-state';

const WINDOW_SECONDS = 3600;
const POLICY = 'hourly';
/**
 * DynamoDB takes about 1,000 writes per second on one item. What matters is the peak rate, not the hourly
 * average: nothing stops a tenant from spending its hour's allowance in a burst. A plan's peak is taken as
 * its whole hourly limit spent within PEAK_SECONDS (60 s), so the counter needs
 * ceil(limit / 60 / 1,000) items: 1 up to 60,000 requests an hour, 17 for 1,000,000, 167 for the
 * largest limit (10,000,000). Sized by the average (limit / 3,600 per second), 10,000,000 an hour would
 * get 3 items, and a burst of 2,800 requests per second on each would be throttled (503s).
 */
export const WRITES_PER_ITEM_PER_SECOND = 1_000;
export const PEAK_SECONDS = 60;

/** The shares of the tenant's hourly counter, one item per 1,000 requests a second at the plan's peak. */
export const counterShares = (limit: number): readonly number[] =>
  shardShares(limit, WRITES_PER_ITEM_PER_SECOND * PEAK_SECONDS);

/** IETF httpapi RateLimit headers (structured-field form) plus the widely used X-RateLimit-* trio. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Policy': `"${POLICY}";q=${s.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${POLICY}";r=${s.remaining};t=${s.secondsLeft}`,
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(s.remaining),
    'X-RateLimit-Reset': String(s.resetAt),
  };
}

/**
 * Counts one request in the tenant's window: one conditional UpdateItem. A plan over the per-item write
 * rate counts in shards (platform/counters.ts: exact, one write per request until the limit is near);
 * `remaining` is then estimated from the shard that counted the request.
 */
async function count(tenant: Tenant, now: Date): Promise<{ state: RateLimitState; allowed: boolean }> {
  const limit = hourlyLimit(tenant);
  const window = fixedWindow(now, WINDOW_SECONDS);
  const key = `RL#${tenant.id}#${window.start}`;
  const expiresAtEpoch = window.resetAt + 60;
  const state = (remaining: number) => ({
    limit,
    remaining: Math.max(0, Math.min(limit, remaining)),
    resetAt: window.resetAt,
    secondsLeft: window.secondsLeft,
  });
  const shares = counterShares(limit);
  if (shares.length === 1) {
    const result = await consume(key, { limit, expiresAtEpoch });
    return { state: state(limit - result.count), allowed: result.allowed };
  }
  const result = await consumeSharded(key, shares, expiresAtEpoch);
  const remaining = result.allowed ? Math.floor(((result.share - result.count) * limit) / result.share) : 0;
  return { state: state(remaining), allowed: result.allowed };
}

/**
 * Per-tenant hourly limit by plan. Counts every authenticated tenant request; refused ones do not count.
 * A GET writes nothing but the counter, so its counter update runs beside the handler's reads (one round
 * trip less to wait for): the handler's answer is used only once the count allowed it (`settleRateLimit`).
 * Other methods are counted before the handler runs. Authentication stays first, so revocation is immediate.
 */
export const rateLimit = (): HttpMiddleware => {
  const addHeaders = (request: HttpRequest) => {
    const state = stateOf(request).rateLimit;
    if (state && request.response) {
      request.response.headers = { ...rateLimitHeaders(state), ...request.response.headers };
    }
  };
  return {
    before: async (request: HttpRequest) => {
      const state = stateOf(request);
      const principal = state.principal;
      if (!principal || (principal.kind !== 'api_key' && principal.kind !== 'user') || state.route.rateLimit === false)
        return;
      const check = count(principal.tenant, state.now).then(({ state: counted, allowed }) => {
        state.rateLimit = counted;
        if (!allowed) {
          throw tooManyRequests(
            'rate_limited',
            `The hourly limit of ${counted.limit} requests for this tenant's plan is used up.`,
            counted.secondsLeft,
          );
        }
      });
      if (state.route.method !== 'GET') return check;
      // Awaited by settleRateLimit; until then a refusal must not surface as an unhandled rejection.
      check.catch(() => undefined);
      state.rateLimitCheck = check;
    },
    after: addHeaders,
    onError: addHeaders,
  };
};

/**
 * Waits for a count running beside the handler (GET): throws the 429 when it refused the request, which
 * then replaces whatever the handler answered. Called by the handler chain on success and on error.
 */
export async function settleRateLimit(state: RequestState): Promise<void> {
  const check = state.rateLimitCheck;
  if (!check) return;
  state.rateLimitCheck = undefined;
  await check;
}
