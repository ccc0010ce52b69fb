import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { methodsOf, routeById } from '../../catalog/routes';
import type { Principal, TenantPrincipal } from '../auth/principal';
import { ApiError, badRequest, unprocessable } from '../platform/errors';
import { problemHandler } from '../platform/problem-handler';
import { corsHeaders, securityHeaders } from '../platform/response-headers';
import type * as z from 'zod/mini';
import { dateOutOfRange, fieldErrors, isDateRangeIssue, type Schema } from '../platform/validation';
import { access } from './access';
import { idempotency } from './idempotency';
import { jsonBody, problemErrors, requestContext } from './middleware';
import { rateLimit, settleRateLimit } from './rate-limit';
import { header, stateOf, type RequestState } from './request-state';

export interface HttpResponse {
  status: number;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as text/plain instead of a JSON body. */
  text?: string;
  /** Sent as an HTML page (a customer's payment page). */
  html?: string;
  headers?: Record<string, string>;
}

export interface HandlerInput<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  principal: Principal;
  now: Date;
  event: APIGatewayProxyEventV2;
  state: RequestState;
}

interface Schemas<B, Q> {
  body?: Schema<B>;
  query?: Schema<Q>;
}

/** What a handler accepts, attached to it for the OpenAPI document (contract/openapi.ts). */
export interface HandlerContract {
  routeId: string;
  body?: Schema<unknown>;
  query?: Schema<unknown>;
}

/**
 * When the only thing wrong is dates outside the accepted range, the answer says so: 422
 * `date_out_of_range`, in a query string as in a body (anything else wrong besides: the usual problem).
 */
function outOfRangeOnly(error: z.core.$ZodError): void {
  if (error.issues.every(isDateRangeIssue)) throw dateOutOfRange(fieldErrors(error));
}

/** No body at all (GET, DELETE, or an empty one) or exactly `{}`. */
const isEmptyObject = (body: unknown) =>
  body === undefined ||
  (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);

/** A DELETE's body, which the middleware leaves unparsed: none, `{}` (however spaced), or something else. */
const unparsedBodyIsEmpty = (text: string) => {
  if (text.trim() === '') return true;
  try {
    return isEmptyObject(JSON.parse(text));
  } catch {
    return false;
  }
};

/**
 * Every HTTP handler is `httpHandler(routeId, schemas, fn)`: the shared middy chain, then strict zod
 * parsing of the query (400; without a query schema, any parameter is 400) and body (422), then `fn`,
 * whose result is serialised as JSON.
 */
export function httpHandler<B = unknown, Q = unknown>(
  routeId: string,
  schemas: Schemas<B, Q>,
  fn: (input: HandlerInput<B, Q>) => Promise<HttpResponse>,
) {
  const route = routeById(routeId);

  const core = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const state = stateOf({ context });
    // A GET's rate-limit count runs beside this handler: its refusal wins over any answer or error.
    try {
      const response = await run(event, state);
      await settleRateLimit(state);
      return response;
    } catch (error) {
      await settleRateLimit(state);
      throw error;
    }
  };

  const run = async (
    event: APIGatewayProxyEventV2,
    state: RequestState,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    let query = undefined as Q;
    if (schemas.query) {
      const parsed = schemas.query.safeParse(event.queryStringParameters ?? {});
      if (!parsed.success) {
        outOfRangeOnly(parsed.error);
        throw badRequest('invalid_query', 'The query string is invalid.', fieldErrors(parsed.error));
      }
      query = parsed.data;
    } else {
      // A route without a query schema takes no parameters: a misspelt filter must not be ignored silently.
      const [name] = Object.keys(event.queryStringParameters ?? {});
      if (name !== undefined) {
        const shown = name.slice(0, 100);
        throw badRequest('invalid_query', `Unknown query parameter \`${shown}\`: this endpoint takes none.`, [
          { path: shown, message: 'unknown parameter' },
        ]);
      }
    }
    if (state.replay) return state.replay;
    let body = undefined as B;
    if (schemas.body) {
      const parsed = schemas.body.safeParse(state.body);
      if (!parsed.success) {
        outOfRangeOnly(parsed.error);
        throw unprocessable('validation_failed', 'The request body is invalid.', fieldErrors(parsed.error));
      }
      body = parsed.data;
    } else if (!isEmptyObject(state.body) || (route.method === 'DELETE' && !unparsedBodyIsEmpty(state.rawBody))) {
      // A route without a body schema takes none: a body it would ignore is refused, as unknown fields are
      // (a DELETE's body is not parsed, so its text is looked at; a GET's is not looked at, as HTTP caches do).
      throw unprocessable('validation_failed', 'This request takes no body: send none, or {}.', [
        { path: '(root)', message: 'unexpected body' },
      ]);
    }
    const result = await fn({
      body,
      query,
      params: (event.pathParameters as Record<string, string>) ?? {},
      principal: state.principal,
      now: state.now,
      event,
      state,
    });
    return serialise(result);
  };

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(requestContext(route))
    .use(securityHeaders())
    .use(corsHeaders())
    .use(access(route))
    .use(rateLimit())
    .use(jsonBody())
    .use(idempotency())
    .use(problemErrors())
    .handler(core);
  const contract: HandlerContract = { routeId, body: schemas.body, query: schemas.query };
  if (!route.head) return Object.assign(handler, { contract });
  // The $default route's answer to another method on this path (platform/unmatched-route.ts), built from
  // this route alone: that module carries the whole route table, which a handler's bundle leaves out.
  const allow = methodsOf(route).join(', ');
  const notAllowed = problemHandler(
    (event) =>
      new ApiError(
        405,
        'method_not_allowed',
        `${event.requestContext.http.method.toUpperCase()} is not allowed here; use ${allow}.`,
        { headers: { Allow: allow } },
      ),
  );
  // HEAD: the GET's answer without its body, saying how long the body would be. In AWS the route takes ANY
  // (lib/stateless-stack.ts): any other method is answered as the $default route answers it (405).
  const headOrGet = async (event: APIGatewayProxyEventV2, context: Context) => {
    const method = event.requestContext.http.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return await notAllowed(event, context);
    const response = await handler(event, context);
    return method === 'HEAD' ? withoutBody(response) : response;
  };
  return Object.assign(headOrGet, { contract });
}

/** A response to HEAD: the GET's status and headers, its body's length as Content-Length, no body. */
export function withoutBody(response: APIGatewayProxyStructuredResultV2): APIGatewayProxyStructuredResultV2 {
  const { body = '', isBase64Encoded, ...rest } = response;
  const length = Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
  return { ...rest, headers: { ...rest.headers, 'Content-Length': String(length) }, body: '' };
}

export function serialise(result: HttpResponse): APIGatewayProxyStructuredResultV2 {
  if (result.html !== undefined)
    return {
      statusCode: result.status,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...result.headers },
      body: result.html,
    };
  if (result.text !== undefined)
    return {
      statusCode: result.status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', ...result.headers },
      body: result.text,
    };
  if (result.body === undefined) return { statusCode: result.status, headers: { ...result.headers } };
  return {
    statusCode: result.status,
    headers: { 'Content-Type': 'application/json', ...result.headers },
    body: JSON.stringify(result.body),
  };
}

export function tenantPrincipal(principal: Principal): TenantPrincipal {
  if (principal.kind !== 'api_key' && principal.kind !== 'user') throw new Error('route is not tenant-authenticated');
  return principal;
}

export const etag = (version: number) => ({ ETag: `"${version}"` });

/** The version named by If-Match, if any. `*` matches any version. */
export function ifMatchVersion(event: APIGatewayProxyEventV2): number | undefined {
  const value = header(event, 'if-match')?.trim();
  if (!value || value === '*') return undefined;
  // A quoted ETag ("3", W/"3") or the bare number; a quote on one side only is neither.
  const match = /^(?:W\/)?(?:"(\d{1,15})"|(\d{1,15}))$/.exec(value);
  const version = match?.[1] ?? match?.[2];
  if (!version) throw badRequest('invalid_if_match', 'If-Match must be an ETag returned by this API, such as "3".');
  return Number(version);
}
