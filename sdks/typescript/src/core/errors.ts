/**
 * Errors the SDK throws. Every API error is an `ApiError` built from the RFC 9457 problem+json body, with
 * a subclass per status the caller may want to handle on its own.
 */

/** One invalid field of a request, as the API reports it (`errors[]` in a problem). */
export interface FieldError {
  /** Dotted path into the body or query (`customer.phone`), or `(root)`. */
  path: string;
  message: string;
}

/** The problem+json body of an error response. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: FieldError[];
  /** `tenant_required` (login): the tenants where the email and password are right; send one as `tenantId`. */
  tenants?: { id: string; name: string }[];
  /** `booking_conflict`: the active booking of the resource that holds part of the time asked for. */
  conflicting_booking?: { id: string; resource_id: string; start_at: string; end_at: string };
  [extension: string]: unknown;
}

/** The hourly limit as reported by the `X-RateLimit-*` headers of the last response. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** When the window resets (from `X-RateLimit-Reset`, Unix seconds). */
  resetAt: Date;
}

/** Base class of everything the SDK throws on purpose. */
export class MessagingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with an error status. */
export class ApiError extends MessagingError {
  /** HTTP status. */
  readonly status: number;
  /** Machine-readable problem code (`booking_conflict`, `validation_failed` …). */
  readonly code: string;
  /** Human-readable explanation. */
  readonly detail: string;
  /** `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Invalid fields, on validation problems; empty otherwise. */
  readonly errors: FieldError[];
  /** The problem type URI. */
  readonly type: string | undefined;
  /** The status text. */
  readonly title: string | undefined;
  /** The full problem body (including any extension members). */
  readonly problem: Problem;
  /** The response headers. */
  readonly headers: Headers;

  constructor(status: number, problem: Problem, headers: Headers) {
    const code = typeof problem.code === 'string' ? problem.code : `http_${status}`;
    const detail = typeof problem.detail === 'string' ? problem.detail : (problem.title ?? `HTTP ${status}`);
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.requestId = (typeof problem.request_id === 'string' ? problem.request_id : undefined) ?? headers.get('x-request-id') ?? undefined;
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.type = problem.type;
    this.title = problem.title;
    this.problem = problem;
    this.headers = headers;
  }
}

/** 400: a malformed request or query (`invalid_query`, `invalid_cursor`, `tenant_required` …). */
export class BadRequestError extends ApiError {}
/** 401: missing, wrong, expired or revoked credentials. */
export class AuthenticationError extends ApiError {}
/** 403: another tenant's credential, a suspended tenant, or a role that is not allowed. */
export class PermissionError extends ApiError {}
/** 404: no such resource (also another tenant's). */
export class NotFoundError extends ApiError {}
/** 409: a conflict with the current state (`booking_conflict`, `conversation_exists` …). */
export class ConflictError extends ApiError {}
/** 412: `If-Match` named a version that is no longer current. */
export class PreconditionFailedError extends ApiError {}
/** 422: the body is valid JSON but not acceptable; `errors` names the fields. */
export class ValidationError extends ApiError {}

/** 429: the tenant's hourly limit (or a login limit) is used up. */
export class RateLimitError extends ApiError {
  /** Seconds to wait before retrying (`Retry-After`), when the API said. */
  readonly retryAfter: number | undefined;
  constructor(status: number, problem: Problem, headers: Headers) {
    super(status, problem, headers);
    this.retryAfter = parseRetryAfter(headers.get('retry-after'));
  }
}

/** 5xx: the API failed or is throttled (503 `dependency_throttled`). */
export class ServerError extends ApiError {
  /** Seconds to wait before retrying (`Retry-After`), when the API said. */
  readonly retryAfter: number | undefined;
  constructor(status: number, problem: Problem, headers: Headers) {
    super(status, problem, headers);
    this.retryAfter = parseRetryAfter(headers.get('retry-after'));
  }
}

/** No response: DNS, connection refused or reset, TLS, or a dropped connection. */
export class ConnectionError extends MessagingError {}

/** No response within the configured `timeout`. */
export class TimeoutError extends ConnectionError {}

/** A webhook delivery failed verification; `reason` says why. */
export class WebhookVerificationError extends MessagingError {
  constructor(
    readonly reason: 'missing_headers' | 'invalid_timestamp' | 'timestamp_too_old' | 'timestamp_in_future' | 'invalid_signature' | 'invalid_secret' | 'invalid_payload',
    message: string,
  ) {
    super(message);
  }
}

/** The error class for a status and problem body. */
export function errorFromResponse(status: number, problem: Problem, headers: Headers): ApiError {
  switch (status) {
    case 400:
      return new BadRequestError(status, problem, headers);
    case 401:
      return new AuthenticationError(status, problem, headers);
    case 403:
      return new PermissionError(status, problem, headers);
    case 404:
      return new NotFoundError(status, problem, headers);
    case 409:
      return new ConflictError(status, problem, headers);
    case 412:
      return new PreconditionFailedError(status, problem, headers);
    case 422:
      return new ValidationError(status, problem, headers);
    case 429:
      return new RateLimitError(status, problem, headers);
    default:
      return status >= 500 ? new ServerError(status, problem, headers) : new ApiError(status, problem, headers);
  }
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}
