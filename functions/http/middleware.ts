import { randomUUID } from 'node:crypto';
import type { RouteDef } from '../../catalog/routes';
import { clock } from '../platform/clock';
import { isThrottling, transactionConflicted } from '../platform/db';
import { jsonDepth } from '../platform/fields';
import { ApiError, badRequest, problemResponse, serviceUnavailable } from '../platform/errors';
import { DomainError, type DomainErrorKind } from '../platform/domain-error';
import { logger } from '../platform/observability';
import { settleRateLimit } from './rate-limit';
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

/**
 * Strict: bytes that are not UTF-8 are refused rather than stored as replacement characters. A byte-order
 * mark is kept, so JSON.parse refuses it as before (RFC 8259: senders must not add one).
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** JSON bodies only, at most 256 KB and 32 levels deep; an empty body parses as {} so schemas report missing fields. */
export const jsonBody = (): HttpMiddleware => ({
  before: (request: HttpRequest) => {
    const state = stateOf(request);
    const { event } = request;
    const method = event.requestContext.http.method;
    if (method === 'GET' || method === 'DELETE' || method === 'OPTIONS' || method === 'HEAD') {
      if (event.body)
        state.rawBody = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      return;
    }
    const raw = event.body
      ? event.isBase64Encoded
        ? Buffer.from(event.body, 'base64')
        : Buffer.from(event.body, 'utf8')
      : Buffer.alloc(0);
    const limit = state.route.maxBodyKb ? state.route.maxBodyKb * 1024 : MAX_BODY_BYTES;
    if (raw.length > limit) {
      throw new ApiError(413, 'body_too_large', `The request body is larger than ${limit / 1024} KB.`);
    }
    if (raw.length === 0) {
      state.body = {};
      return;
    }
    const contentType = (header(event, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (contentType !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(contentType)) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    }
    // Compressed bodies are not decoded: say so, rather than call the bytes malformed JSON.
    // A list of codings (RFC 9110 §8.4) that holds anything but identity means a coded body.
    const codings = (header(event, 'content-encoding') ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    if (codings.length > 0) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Encoding ${codings.join(', ')} is not supported: send the JSON body uncompressed.`,
        // RFC 9110 §15.5.16: a 415 for a content coding says which codings are accepted.
        { headers: { 'Accept-Encoding': 'identity' } },
      );
    }
    // JSON is UTF-8 (RFC 8259, which gives a charset parameter no effect): the bytes decide, not the label.
    try {
      state.rawBody = UTF8.decode(raw);
    } catch {
      throw badRequest('malformed_json', 'The request body is not valid UTF-8.');
    }
    if (jsonDepth(state.rawBody) > MAX_JSON_DEPTH) {
      throw badRequest(
        'json_too_deep',
        `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
      );
    }
    try {
      state.body = JSON.parse(state.rawBody);
    } catch {
      throw badRequest('malformed_json', 'The request body is not valid JSON.');
    }
  },
});

/** The one place where the domain's failures get their HTTP status. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  not_found: 404,
  conflict: 409,
  version_mismatch: 412,
  invalid: 422,
  limit: 422,
  malformed: 400,
};

/** The problem an error becomes; undefined for an unexpected one (a 500). */
export function problemOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError)
    return new ApiError(DOMAIN_STATUS[error.kind], error.code, error.detail, {
      errors: error.fieldErrors,
      members: error.members,
    });
  if (isThrottling(error)) return serviceUnavailable('The database is throttling requests; retry shortly.');
  // A transaction cancelled by another one writing the same items wrote nothing, and a retry goes through.
  if (transactionConflicted(error)) return serviceUnavailable('A concurrent change got in the way; retry shortly.');
  return undefined;
}

/** Added last so its onError runs first: every error becomes one problem+json response. */
export const problemErrors = (): HttpMiddleware => ({
  onError: async (request: HttpRequest) => {
    // An error before the handler ran (body, idempotency): a refused rate-limit count still answers 429.
    const state = peekState(request.context);
    if (state)
      await settleRateLimit(state).catch((refused: unknown) => {
        request.error = refused as Error;
      });
    const error = request.error;
    let problem = problemOf(error);
    if (!problem) {
      logger.error('unhandled error', { error: error as Error });
      problem = new ApiError(
        500,
        'internal_error',
        'An unexpected error occurred. Quote the request_id when reporting it.',
      );
    }
    // Per-status counts come free from API Gateway's own metrics (Count, 4xx, 5xx); only server errors get
    // a metric line of their own, so a successful request writes no metrics record. Powertools Metrics is
    // loaded then, from a bundle beside the handler's (`#metrics`), not parsed with every cold start.
    if (problem.status >= 500) {
      const { metrics } = await import('#metrics');
      metrics.addMetric('server_error', 'Count', 1);
      metrics.publishStoredMetrics();
    }
    request.response = problemResponse(problem, peekState(request.context)?.requestId);
  },
});
