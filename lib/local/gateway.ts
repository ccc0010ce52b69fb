import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { API_PREFIXES, ROUTES, type RouteDef } from '../routes';
import { CORS } from '../../functions/platform/cors';
import { lambdaContext } from './context';

/** API Gateway HTTP APIs refuse payloads over 10 MB before any Lambda runs; so does this gateway. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  params: string[];
  handler: Handler;
}

function compile(path: string): { pattern: RegExp; params: string[] } {
  const params: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}/?$`), params };
}

/** Loads every handler module named in the route table: the very modules the CDK stack deploys. */
export async function loadRoutes(functionsDir: string): Promise<CompiledRoute[]> {
  return Promise.all(
    ROUTES.map(async (route) => {
      const mod = (await import(pathToFileURL(`${functionsDir}/${route.handler}.ts`).href)) as { handler: Handler };
      return { route, ...compile(route.path), handler: mod.handler };
    }),
  );
}

function problem(res: ServerResponse, status: number, code: string, detail: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
  res.end(JSON.stringify({ type: `https://docs.messaging.dev/problems/${code}`, title: code.replace(/_/g, ' '), status, detail, code }));
}

const TEXT_TYPES = /^(application\/([\w.+-]*json|x-www-form-urlencoded|xml)|text\/)/i;

/** Builds the API Gateway HTTP API payload 2.0 event, as API Gateway would. */
export function toEvent(req: IncomingMessage, url: URL, route: CompiledRoute, params: Record<string, string>, body: Buffer, requestId: string): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    headers[name] = headers[name] !== undefined ? `${headers[name]},${value}` : value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] !== undefined ? `${query[k]},${v}` : v;
  const textual = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    version: '2.0',
    routeKey: `${route.route.method} ${route.route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method, path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: `${route.route.method} ${route.route.path}`,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: !textual,
  };
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

export function createGateway(routes: CompiledRoute[]): Server {
  return createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://local');
    } catch {
      req.resume();
      return problem(res, 400, 'malformed_path', 'The request target is not a valid path.');
    }
    const prefix = API_PREFIXES.find((p) => url.pathname === p || url.pathname.startsWith(`${p}/`));
    const path = prefix ? url.pathname.slice(prefix.length) : undefined;
    const method = (req.method ?? 'GET').toUpperCase();
    const matches = path === undefined ? [] : routes.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
    if (matches.length === 0) {
      req.resume();
      return problem(res, 404, 'route_not_found', `No route matches ${method} ${url.pathname}.`);
    }
    if (method === 'OPTIONS') {
      req.resume();
      return corsPreflight(res);
    }
    const hit = matches.find((x) => x.r.route.method === method);
    if (!hit?.m) {
      req.resume();
      const allow = matches.map((x) => x.r.route.method).join(', ');
      return problem(res, 405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, { Allow: allow });
    }
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(hit.r.params.map((name, i) => [name, decodeURIComponent(hit.m?.[i + 1] ?? '')]));
    } catch {
      req.resume();
      return problem(res, 400, 'malformed_path', 'The path contains an invalid percent-encoding.');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return problem(res, 413, 'body_too_large', 'The request body is larger than the gateway accepts.');
      const requestId = randomUUID();
      const event = toEvent(req, url, hit.r, params, Buffer.concat(chunks), requestId);
      hit.r
        .handler(event, lambdaContext(hit.r.route.id, requestId))
        .then((result) => writeResult(res, result))
        .catch((error: unknown) => {
          console.error(`[gateway] ${hit.r.route.id} threw`, error);
          problem(res, 500, 'internal_error', 'The handler failed.');
        });
    });
  });
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2) {
  if (typeof result === 'string') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return res.end(result);
  }
  const structured = result as APIGatewayProxyStructuredResultV2;
  const headers: Record<string, string | string[]> = {};
  // middy removes headers (Server, X-Powered-By) by setting them undefined; API Gateway drops those.
  for (const [k, v] of Object.entries(structured.headers ?? {})) if (v !== undefined && v !== null && v !== '') headers[k] = String(v);
  if (structured.cookies?.length) headers['Set-Cookie'] = structured.cookies;
  res.writeHead(structured.statusCode ?? 200, headers);
  const body = structured.body ?? '';
  res.end(structured.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
