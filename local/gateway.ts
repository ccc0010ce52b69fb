import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { methodsOf, ROUTES } from '../catalog/routes';
import { CORS } from '../catalog/cors';
import { ApiError, STATUS_TEXT } from '../functions/platform/errors';
import { decodeParams, matchPath } from '../functions/platform/routing';
import { handler as unmatchedRoute, problemHandler } from '../functions/platform/unmatched-route';
import { serveDocs } from './docs';
import { serveDashboard } from './dashboard';
import { API_TIMEOUT_SECONDS } from '../catalog/functions';
import { guardEventLoop, watchInvocation } from './watchdog';
import { invokeLocally, requestIdOf, type Store } from './invocations';
import { logRequest } from './logs';
import { httpApiEvent } from './http-event';

/** API Gateway HTTP APIs refuse payloads over 10 MB before any Lambda runs; so does this gateway. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/**
 * API Gateway HTTP APIs accept at most 10,240 bytes of request line and header values. Node counts the
 * header names too, so this gateway refuses a little earlier, never later.
 */
const GATEWAY_MAX_HEADER_BYTES = 10_240;

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** Handler modules by route id. */
export type LoadedRoutes = ReadonlyMap<string, Handler>;

/** Loads every handler module named in the route table: the very modules the CDK stack deploys. */
export async function loadRoutes(functionsDir: string): Promise<LoadedRoutes> {
  const loaded = await Promise.all(
    ROUTES.map(async (route) => {
      const mod = (await import(pathToFileURL(`${functionsDir}/${route.handler}.ts`).href)) as { handler: Handler };
      return [route.id, mod.handler] as const;
    }),
  );
  return new Map(loaded);
}

/** Problems the gateway answers itself (API Gateway's own 413, a handler that threw), in the API's usual shape. */
const tooLarge = problemHandler(
  () => new ApiError(413, 'body_too_large', 'The request body is larger than the gateway accepts (10 MB).'),
);
/**
 * What the gateway answers bytes it cannot parse as an HTTP request (no handler runs, no `res` exists):
 * the API's usual problem with its usual headers, as raw bytes, then the connection closes as Node's
 * default answer does.
 */
const unparsedRequest = problemHandler((event) =>
  event.headers.overflow
    ? new ApiError(
        431,
        'headers_too_large',
        `The request line and headers are larger than the gateway accepts (${GATEWAY_MAX_HEADER_BYTES} bytes).`,
      )
    : new ApiError(400, 'malformed_request', 'The request is not valid HTTP/1.1.'),
);

async function unparsedRequestResponse(error: NodeJS.ErrnoException): Promise<string> {
  // No request line could be read: an event with no method or path, marked when the headers overflowed.
  const event = httpApiEvent({
    method: '',
    rawPath: '',
    headers: error.code === 'HPE_HEADER_OVERFLOW' ? { overflow: 'true' } : {},
  });
  const { statusCode = 400, headers = {}, body = '' } = await unparsedRequest(event, {} as Context);
  return [
    `HTTP/1.1 ${statusCode} ${STATUS_TEXT[statusCode] ?? 'Error'}`,
    // As writeResult: middy removes a header by leaving it empty.
    ...Object.entries(headers)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([name, value]) => `${name}: ${String(value)}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** API Gateway answers a function that overran its timeout itself; so does this gateway, as a problem. */
const timedOut = (seconds: number) =>
  problemHandler(
    () =>
      new ApiError(
        504,
        'gateway_timeout',
        `The request was not answered within ${seconds} s. It may still have taken effect: read before retrying a write.`,
      ),
  );

const handlerFailed = problemHandler(
  () => new ApiError(500, 'internal_error', 'An unexpected error occurred. Quote the request_id when reporting it.'),
);

/** The request target as API Gateway reports it: `rawPath` and `rawQueryString`. */
interface Target {
  rawPath: string;
  rawQueryString: string;
}

function targetOf(req: IncomingMessage): Target {
  try {
    const url = new URL(req.url ?? '/', 'http://local');
    return { rawPath: url.pathname, rawQueryString: url.search.slice(1) };
  } catch {
    // Not a parseable target: the `$default` route answers it (400 malformed_path).
    return { rawPath: req.url ?? '', rawQueryString: '' };
  }
}

/** Builds the API Gateway HTTP API payload 2.0 event, as API Gateway would. */
export function toEvent(
  req: IncomingMessage,
  target: Target,
  routeKey: string,
  params: Record<string, string>,
  body: Buffer,
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    headers[name] = headers[name] !== undefined ? `${headers[name]},${value}` : value;
  }
  return httpApiEvent({
    method: req.method ?? 'GET',
    ...target,
    headers,
    routeKey,
    pathParameters: params,
    body,
    requestId,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    protocol: `HTTP/${req.httpVersion}`,
  });
}

function corsPreflight(res: ServerResponse) {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': CORS.allowOrigins.join(','),
    'Access-Control-Allow-Methods': CORS.allowMethods.join(','),
    'Access-Control-Allow-Headers': CORS.allowHeaders.join(','),
    'Access-Control-Max-Age': String(CORS.maxAgeSeconds),
  });
  res.end();
}

/**
 * Routes as API Gateway does: a matching route runs its handler; anything else (unknown path, wrong
 * method, malformed path) runs the `$default` route's handler, as the deployed API does.
 */
export interface GatewayOptions {
  /** How long a handler may run before the gateway answers 504 (default: the API functions' timeout). */
  handlerTimeoutMs?: number;
  /** How long the event loop may stay blocked before the runtime ends (default: twice the timeout). */
  blockedEndMs?: number;
}

export function createGateway(routes: LoadedRoutes, options: GatewayOptions = {}): Server {
  const timeoutMs = options.handlerTimeoutMs ?? API_TIMEOUT_SECONDS * 1000;
  const overran = timedOut(timeoutMs / 1000);
  const invoke = (res: ServerResponse, name: string, handler: Handler, event: APIGatewayProxyEventV2, store: Store) =>
    invokeWithin(timeoutMs, overran, res, name, handler, event, store);
  const server = createServer({ maxHeaderSize: GATEWAY_MAX_HEADER_BYTES }, (req, res) => {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const target = targetOf(req);
    // The handler's invocation store: its access-log record gives the request's log line its tenant.
    const invocation: Store = {};
    res.once('finish', () => {
      const ms = Date.now() - started;
      logRequest({
        method,
        path: target.rawPath,
        status: res.statusCode,
        ms,
        requestId: requestIdOf(invocation),
        invocation,
      });
    });
    // The API reference (local only; deployed, the document is at /api/v1/openapi.json).
    if (serveDocs(req, res, target.rawPath)) return;
    // The dashboard's files and SPA routes (GET and HEAD outside /api/v1 and /v1), when it is built.
    if (serveDashboard(req, res, target.rawPath)) return;
    const matches = matchPath(target.rawPath);
    if (method === 'OPTIONS' && matches.length > 0) {
      req.resume();
      return corsPreflight(res);
    }
    const hit = matches.find((m) => methodsOf(m.route).includes(method));
    const params = hit && decodeParams(hit.rawParams);
    const handler = hit && routes.get(hit.route.id);
    if (!hit || !params || !handler) {
      req.resume();
      const event = toEvent(req, target, '$default', {}, Buffer.alloc(0), randomUUID());
      return void invoke(res, 'unmatched-route', unmatchedRoute, event, invocation);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let overLimit = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY) overLimit = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const routeKey = `${method} ${hit.route.path}`;
      if (overLimit)
        return void invoke(
          res,
          'gateway',
          tooLarge,
          toEvent(req, target, routeKey, params, Buffer.alloc(0), randomUUID()),
          invocation,
        );
      void invoke(
        res,
        hit.route.id,
        handler,
        toEvent(req, target, routeKey, params, Buffer.concat(chunks), randomUUID()),
        invocation,
      );
    });
  });
  // A handler stuck in synchronous work holds every other request too: the watchdog reports it, then ends it.
  const leaveWatchdog = guardEventLoop(timeoutMs, options.blockedEndMs);
  server.on('close', leaveWatchdog);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // A reset connection, or one already answered, has nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    void unparsedRequestResponse(error).then((response) => socket.end(response));
  });
  // Idle keep-alive connections stay open longer than clients keep them (as API Gateway's do), so a
  // client never sends a request on a connection the gateway is closing at that moment, even when a busy
  // process runs the idle timer late.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/**
 * Runs a handler and writes its answer; past `timeoutMs`, answers 504 instead (the handler's own answer,
 * if it ever comes, is then dropped, as API Gateway drops a stopped function's).
 */
async function invokeWithin(
  timeoutMs: number,
  overran: Handler,
  res: ServerResponse,
  functionName: string,
  handler: Handler,
  event: APIGatewayProxyEventV2,
  invocation: Store,
): Promise<void> {
  const done = watchInvocation(functionName, event.requestContext.requestId);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const result = await Promise.race([
      invokeLocally(functionName, handler, event, event.requestContext.requestId, invocation),
      deadline,
    ]);
    if (result === 'timeout') {
      console.error(`[gateway] ${functionName} did not answer within ${timeoutMs} ms`);
      if (!res.headersSent) writeResult(res, await overran(event, {} as Context));
      return;
    }
    if (!res.headersSent) writeResult(res, result);
  } catch (error) {
    console.error(`[gateway] ${functionName} threw`, error);
    // As in Lambda, the failed invocation's request id is the one to quote.
    if (!res.headersSent) writeResult(res, await handlerFailed(event, {} as Context));
  } finally {
    clearTimeout(timer);
    done();
  }
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2) {
  if (typeof result === 'string') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return res.end(result);
  }
  const structured = result;
  const headers: Record<string, string | string[]> = {};
  // middy removes headers (Server, X-Powered-By) by setting them undefined; API Gateway drops those.
  for (const [k, v] of Object.entries(structured.headers ?? {}))
    if (v !== undefined && v !== null && v !== '') headers[k] = String(v);
  if (structured.cookies?.length) headers['Set-Cookie'] = structured.cookies;
  const body = structured.body ?? '';
  const payload = structured.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
  const status = structured.statusCode ?? 200;
  // As API Gateway: the body's length, not chunks (a HEAD response brings the length its GET would have;
  // a 204 or 304 has none).
  const sized = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  if (!sized && status !== 204 && status !== 304) headers['Content-Length'] = String(payload.length);
  res.writeHead(status, headers);
  res.end(payload);
}
