import { randomUUID } from 'node:crypto';
import type { RouteDef } from '../../lib/routes';
import { authenticatePlatform, authenticateTenant } from '../auth/authenticate';
import { roleAllows } from '../auth/principal';
import { clock } from './clock';
import { isThrottling } from './db';
import { jsonDepth } from './fields';
import { ApiError, badRequest, forbidden, problemResponse, serviceUnavailable } from './errors';
import { isUuid } from './ids';
import { logger, metrics } from './observability';
import { header, initState, peekState, stateOf, type HttpMiddleware, type HttpRequest } from './request-state';

export const MAX_BODY_BYTES = 256 * 1024;
/** Deeper bodies are refused before parsing: no request needs more, and every later step stays shallow. */
export const MAX_JSON_DEPTH = 32;

/** First in the chain: request id, clock reading, and one access-log line per request. */
export const requestContext = (route: RouteDef): HttpMiddleware => {
  const finish = (request: HttpRequest) => {
    const state = peekState(request.context);
    if (!state || !request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Request-Id': state.requestId };
    // Never log headers or bodies: they carry credentials and personal data.
    logger.info('request', {
      route: route.id,
      method: request.event.requestContext.http.method,
      status: request.response.statusCode,
      duration_ms: Date.now() - state.startedAt,
      tenant_id: state.tenantId,
    });
    metrics.addMetric(`status_${Math.floor((request.response.statusCode ?? 200) / 100)}xx`, 'Count', 1);
  };
  return {
    before: (request: HttpRequest) => {
      const requestId = request.event.requestContext?.requestId || randomUUID();
      // Warm containers reuse the logger: drop the previous request's keys.
      logger.resetKeys();
      logger.appendKeys({ request_id: requestId, route: route.id });
      initState(request.context, {
        route,
        requestId,
        now: clock.now(),
        startedAt: Date.now(),
        principal: { kind: 'anonymous' },
        rawBody: '',
      });
    },
    after: finish,
    onError: finish,
  };
};

/** X-Tenant-ID is checked before anything else, then the credential, then the role. */
export const access = (route: RouteDef): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    const state = stateOf(request);
    const tenantHeader = header(request.event, 'x-tenant-id');
    if (route.auth === 'tenant' && tenantHeader === undefined) {
      throw badRequest('tenant_header_missing', 'The X-Tenant-ID header is required.');
    }
    if (route.auth !== 'platform' && tenantHeader !== undefined) {
      if (!isUuid(tenantHeader.trim())) throw badRequest('tenant_header_invalid', 'The X-Tenant-ID header must be a UUID.');
      state.tenantId = tenantHeader.trim().toLowerCase();
      logger.appendKeys({ tenant_id: state.tenantId });
    }
    const authorization = header(request.event, 'authorization');
    if (route.auth === 'platform') {
      await authenticatePlatform(authorization);
      state.principal = { kind: 'platform' };
    } else if (route.auth === 'tenant' && state.tenantId) {
      const principal = await authenticateTenant(authorization, state.tenantId, state.now);
      if (!roleAllows(principal.role, route.role)) {
        throw forbidden('insufficient_role', `This action needs the ${route.role} role.`);
      }
      state.principal = principal;
    }
  },
});

/** JSON bodies only, at most 256 KB and 32 levels deep; an empty body parses as {} so schemas report missing fields. */
export const jsonBody = (): HttpMiddleware => ({
  before: (request: HttpRequest) => {
    const state = stateOf(request);
    const { event } = request;
    const method = event.requestContext.http.method;
    if (method === 'GET' || method === 'DELETE' || method === 'OPTIONS' || method === 'HEAD') {
      if (event.body) state.rawBody = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      return;
    }
    const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8')) : Buffer.alloc(0);
    if (raw.length > MAX_BODY_BYTES) {
      throw new ApiError(413, 'body_too_large', `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
    }
    if (raw.length === 0) {
      state.body = {};
      return;
    }
    const contentType = (header(event, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (contentType !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(contentType)) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    state.rawBody = raw.toString('utf8');
    if (jsonDepth(state.rawBody) > MAX_JSON_DEPTH) {
      throw badRequest('json_too_deep', `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);
    }
    try {
      state.body = JSON.parse(state.rawBody);
    } catch {
      throw badRequest('malformed_json', 'The request body is not valid JSON.');
    }
  },
});

/** Added last so its onError runs first: every error becomes one problem+json response. */
export const problemErrors = (): HttpMiddleware => ({
  onError: (request: HttpRequest) => {
    const error = request.error;
    let problem: ApiError;
    if (error instanceof ApiError) {
      problem = error;
    } else if (isThrottling(error)) {
      problem = serviceUnavailable('The database is throttling requests; retry shortly.');
    } else {
      logger.error('unhandled error', { error: error as Error });
      problem = new ApiError(500, 'internal_error', 'An unexpected error occurred. Quote the request_id when reporting it.');
    }
    if (problem.status >= 500) metrics.addMetric('server_error', 'Count', 1);
    request.response = problemResponse(problem, peekState(request.context)?.requestId);
  },
});

/** Kept here for existing imports; it lives in errors.ts so tiny handlers can use it without this chain. */
export { problemResponse };
