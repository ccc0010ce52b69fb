import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDef } from '../../catalog/routes';
import type { Principal } from '../auth/principal';

/** The tenant's hourly window as the rate-limit step found it, for the response headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetAt: number;
  secondsLeft: number;
}

/** What the middleware chain learns about a request, shared between its steps. */
export interface RequestState {
  route: RouteDef;
  requestId: string;
  now: Date;
  startedAt: number;
  tenantId?: string;
  principal: Principal;
  /** Parsed JSON body (undefined when the request had none). */
  body?: unknown;
  rawBody: string;
  rateLimit?: RateLimitState;
  /** The rate-limit count of a GET, running beside the handler's reads (rate-limit.ts: settleRateLimit). */
  rateLimitCheck?: Promise<void>;
  /** A stored response to replay instead of running the handler (Idempotency-Key). */
  replay?: APIGatewayProxyStructuredResultV2;
}

export type HttpRequest = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;
export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

/** The state rides on the invocation's context object, which is unique per request (also locally). */
const STATE = Symbol('requestState');
type WithState = Context & { [STATE]?: RequestState };

export function initState(context: Context, state: RequestState): void {
  (context as WithState)[STATE] = state;
}

export const peekState = (context: Context): RequestState | undefined => (context as WithState)[STATE];

export function stateOf(request: HttpRequest | { context: Context }): RequestState {
  const state = peekState(request.context);
  if (!state) throw new Error('request state not initialised');
  return state;
}

/** Case-insensitive header lookup (API Gateway lowercases, but direct invocations may not). */
export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
