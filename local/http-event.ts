import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';

/** What an HTTP request to the API gives its Lambda: the parts API Gateway reads from it. */
export interface HttpRequest {
  method: string;
  /** The path as sent, not decoded. */
  rawPath: string;
  /** The query string without its `?`, as sent. */
  rawQueryString?: string;
  /** Lower-case names; a repeated header's values joined with commas, as API Gateway joins them. */
  headers?: Record<string, string>;
  /** The matched route (`POST /webhooks`), `$default` when none. */
  routeKey?: string;
  pathParameters?: Record<string, string>;
  /** Bytes as received; a string is sent as text. */
  body?: Buffer | string;
  requestId?: string;
  sourceIp?: string;
  protocol?: string;
  /** Milliseconds since the epoch. */
  now?: number;
  /** The API's own id and domain: the local gateway's unless given. */
  apiId?: string;
  accountId?: string;
}

const TEXT_TYPES = /^(application\/([\w.+-]*json|x-www-form-urlencoded|xml)|text\/)/i;

/**
 * The API Gateway HTTP API payload 2.0 event of a request, as API Gateway builds it: the one builder of
 * these events, used by the local gateway for every request and by tests that invoke a handler directly.
 */
export function httpApiEvent(request: HttpRequest): APIGatewayProxyEventV2 {
  const headers = request.headers ?? {};
  const rawQueryString = request.rawQueryString ?? '';
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(rawQueryString)) query[k] = query[k] !== undefined ? `${query[k]},${v}` : v;
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : (request.body ?? Buffer.alloc(0));
  // A text body that is not valid UTF-8 cannot be passed as a string without altering it: base64, as binary.
  // (Assumed to match API Gateway, which base64-encodes what it cannot pass as text; where it would pass
  // replacement characters instead, the handler cannot tell them from sent ones.)
  const textual =
    typeof request.body === 'string' ||
    body.length === 0 ||
    (TEXT_TYPES.test(headers['content-type'] ?? '') && isUtf8(body));
  const now = request.now ?? Date.now();
  const method = request.method.toUpperCase();
  const routeKey = request.routeKey ?? '$default';
  const apiId = request.apiId ?? 'local';
  return {
    version: '2.0',
    routeKey,
    rawPath: request.rawPath,
    rawQueryString,
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters:
      request.pathParameters && Object.keys(request.pathParameters).length ? request.pathParameters : undefined,
    requestContext: {
      accountId: request.accountId ?? '000000000000',
      apiId,
      domainName: headers.host ?? 'localhost',
      domainPrefix: apiId,
      http: {
        method,
        path: request.rawPath,
        protocol: request.protocol ?? 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId ?? randomUUID(),
      routeKey,
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now,
    },
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: !textual,
  };
}

/**
 * The payload 2.0 event a REQUEST authorizer of the HTTP API receives for a request: the request's event
 * plus the authorizer's fields (the AWS stacks' authorizers; the local gateway has none).
 */
export function httpApiAuthorizerEvent(request: HttpRequest & { region?: string }): APIGatewayRequestAuthorizerEventV2 {
  const event = httpApiEvent(request);
  const { accountId, apiId, stage, http } = event.requestContext;
  return {
    ...event,
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:${request.region ?? 'eu-central-1'}:${accountId}:${apiId}/${stage}/${http.method}${http.path}`,
    identitySource: Object.values(request.headers ?? {}),
    cookies: event.cookies ?? [],
    headers: request.headers ?? {},
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `requestContext.time` as API Gateway writes it: `29/Nov/2026:10:00:00 +0000`. */
function requestTime(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}
