/**
 * Errors of the HTTP layer that become RFC 9457 problem+json responses. Stores and services raise
 * DomainErrors instead (domain-error.ts), which the error handler maps; anything else becomes a generic 500.
 */
import { problemDocsUrl, problemType } from '../../catalog/problems';

export interface FieldError {
  path: string;
  message: string;
}

/** Each status the API answers with, and its text: a problem's `title`, and the contract's descriptions. */
export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** Extension members of this problem type (RFC 9457 §3.2), each documented in the contract. */
      members?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  get title(): string {
    return STATUS_TEXT[this.status] ?? 'Error';
  }
}

export const badRequest = (code: string, detail: string, errors?: FieldError[]) =>
  new ApiError(400, code, detail, { errors });
export const unauthorized = (code: string, detail: string) =>
  new ApiError(401, code, detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (code: string, detail: string) => new ApiError(403, code, detail);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} was not found.`);
export const conflict = (code: string, detail: string) => new ApiError(409, code, detail);
export const unprocessable = (code: string, detail: string, errors?: FieldError[]) =>
  new ApiError(422, code, detail, { errors });
export const tooManyRequests = (code: string, detail: string, retryAfterSeconds: number) =>
  new ApiError(429, code, detail, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
export const serviceUnavailable = (detail: string, retryAfterSeconds = 1) =>
  new ApiError(503, 'dependency_throttled', detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });

// The CDK stack's edge answers problems too (lib/api-edge.ts), so the address lives in catalog/.
export { problemDocsUrl, problemType };

/** The problem+json response for an error; one shape for handlers, the `$default` route and the local gateway. */
export function problemResponse(problem: ApiError, requestId: string | undefined) {
  return {
    statusCode: problem.status,
    headers: { 'Content-Type': 'application/problem+json', ...problem.extra.headers },
    body: JSON.stringify({
      type: problemType(problem.code),
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      code: problem.code,
      request_id: requestId,
      ...(problem.extra.errors ? { errors: problem.extra.errors } : {}),
      ...problem.extra.members,
    }),
  };
}
