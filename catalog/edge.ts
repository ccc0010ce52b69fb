/**
 * The API's edge in AWS (lib/api-edge.ts): which routes the WAF rules and the stage's route throttles
 * treat apart, and their limits. Pure data, like the route table it names routes of.
 */
import { API_PREFIXES, ROUTES, type RouteDef } from './routes';

/** The header CloudFront adds to every request it forwards, holding the origin secret. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** The header a CloudFront Function sets to the viewer's address (replacing any the viewer sent). */
export const VIEWER_IP_HEADER = 'x-viewer-ip';

/** The login and token-refresh routes: a rate-based WAF rule per source address covers them. */
export const AUTH_ROUTE_IDS = ['auth-login', 'auth-refresh'] as const;
/**
 * Routes a provider (Meta) calls: no WAF rule may refuse them, since a refused delivery of a customer's
 * message (which may contain anything) is retried by Meta and then lost. A new provider webhook (Stripe)
 * goes here too; the infra test fails until every unauthenticated route is placed.
 */
export const PROVIDER_WEBHOOK_ROUTE_IDS = [
  'whatsapp-webhook-verify',
  'whatsapp-webhook',
  'payments-stripe-webhook',
] as const;
/** Unauthenticated documents, cached by nobody but harmless to serve. */
export const PUBLIC_DOCUMENT_ROUTE_IDS = ['openapi'] as const;
/**
 * The pages a customer's browser opens from a payment link (the sandbox checkout and its buttons, and where
 * Stripe returns them): signed links, under the managed rules like any browser traffic.
 */
export const CUSTOMER_PAGE_ROUTE_IDS = [
  'payments-checkout-page',
  'payments-checkout-pay',
  'payments-checkout-decline',
] as const;

/** A route's every path, under each prefix, as a viewer sends it. */
export const routePaths = (route: RouteDef): string[] => API_PREFIXES.map((prefix) => `${prefix}${route.path}`);
export const routesById = (ids: readonly string[]): RouteDef[] =>
  ids.map((id) => {
    const route = ROUTES.find((r) => r.id === id);
    if (!route) throw new Error(`No route ${id}`);
    return route;
  });

/**
 * WAF rate-based rules count requests in a sliding window of this many seconds (60, 120, 300 or 600).
 * Refused requests get 429 with `Retry-After` of the same length.
 */
export const EDGE_WINDOW_SECONDS = 300;

/**
 * Login and refresh requests per source address and window. Above the login guard in the handler
 * (30 logins a minute per address, 150 in five), so that exact limit answers first and this one only
 * stops floods; an office behind one address refreshing every agent's session uses a few dozen.
 */
export const EDGE_AUTH_LIMIT_PER_IP = 300;

/**
 * Default ceiling on the requests of one credential of one tenant (`X-Tenant-ID` and `Authorization`)
 * per window: far above the free, starter and pro plans (100 and 1,000 an hour), and above an enterprise
 * limit of up to 50,000 an hour even when a tenant spends its whole hour in five minutes. Raise it
 * (`-c edgeTenantLimit=…`) for larger enterprise limits.
 */
export const DEFAULT_EDGE_TENANT_LIMIT = 50_000;
/** What WAF accepts as a rate-based rule's limit. */
export const WAF_RATE_LIMIT_RANGE = { min: 10, max: 2_000_000_000 } as const;

export interface RouteThrottle {
  /** Steady requests per second, across every client. */
  rateLimit: number;
  burstLimit: number;
}

/**
 * Stage throttles of the routes anyone may call without a credential (and of the operator's), below the
 * stage default so a flood of them is refused by API Gateway before any Lambda runs. Capped at the
 * stage default when that is configured lower.
 */
export const ROUTE_THROTTLES: Record<string, RouteThrottle> = {
  'auth-login': { rateLimit: 20, burstLimit: 40 },
  'auth-refresh': { rateLimit: 50, burstLimit: 100 },
  // Meta sends bursts of delivery receipts after a campaign and retries what is not answered 200.
  'whatsapp-webhook': { rateLimit: 100, burstLimit: 200 },
  // Only when a webhook subscription is set up.
  'whatsapp-webhook-verify': { rateLimit: 5, burstLimit: 10 },
  // Stripe retries what is not answered 2xx; its events come at the pace of the tenants' payments.
  'payments-stripe-webhook': { rateLimit: 50, burstLimit: 100 },
  'payments-checkout-page': { rateLimit: 20, burstLimit: 40 },
  'payments-checkout-pay': { rateLimit: 10, burstLimit: 20 },
  'payments-checkout-decline': { rateLimit: 10, burstLimit: 20 },
  openapi: { rateLimit: 20, burstLimit: 40 },
  'tenants-create': { rateLimit: 5, burstLimit: 10 },
  'tenants-list': { rateLimit: 10, burstLimit: 20 },
  'tenants-get': { rateLimit: 10, burstLimit: 20 },
  'tenants-update': { rateLimit: 5, burstLimit: 10 },
};
