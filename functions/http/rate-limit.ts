import { consume, fixedWindow } from '../platform/counters';
import { tooManyRequests } from '../platform/errors';
import { hourlyLimit } from '../tenants/tenant';
import { stateOf, type HttpMiddleware, type HttpRequest, type RateLimitState } from './request-state';

const WINDOW_SECONDS = 3600;
const POLICY = 'hourly';

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

/** Per-tenant hourly limit by plan. Counts every authenticated tenant request; refused ones do not count. */
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
      const limit = hourlyLimit(principal.tenant);
      const window = fixedWindow(state.now, WINDOW_SECONDS);
      const result = await consume(`RL#${principal.tenant.id}#${window.start}`, {
        limit,
        expiresAtEpoch: window.resetAt + 60,
      });
      state.rateLimit = {
        limit,
        remaining: Math.max(0, limit - result.count),
        resetAt: window.resetAt,
        secondsLeft: window.secondsLeft,
      };
      if (!result.allowed) {
        throw tooManyRequests(
          'rate_limited',
          `The hourly limit of ${limit} requests for this tenant's plan is used up.`,
          window.secondsLeft,
        );
      }
    },
    after: addHeaders,
    onError: addHeaders,
  };
};
