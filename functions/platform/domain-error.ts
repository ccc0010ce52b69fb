import type { FieldError } from './errors';

/**
 * What stores and services raise when a request cannot be done: the kind of failure, a stable code and a
 * detail for the caller. They know nothing of HTTP; the error handler in functions/http/middleware.ts
 * maps each kind to its status.
 *   not_found         the thing does not exist (for this tenant)
 *   conflict          it clashes with the current state (a taken slot, an email in use, a pending delivery)
 *   version_mismatch  it changed since the version the caller named
 *   invalid           the input breaks a rule, often with field errors
 *   limit             a bound of the tenant's data would be exceeded
 *   malformed         the request cannot be served as asked (a foreign cursor, a filter combination no index answers)
 */
export type DomainErrorKind = 'not_found' | 'conflict' | 'version_mismatch' | 'invalid' | 'limit' | 'malformed';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    readonly detail: string,
    readonly fieldErrors?: FieldError[],
    /** Extension members of the problem it becomes (each documented in the contract's Problem schema). */
    readonly members?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'DomainError';
  }

  static notFound(what: string): DomainError {
    return new DomainError('not_found', 'not_found', `${what} was not found.`);
  }

  static conflict(code: string, detail: string, members?: Record<string, unknown>): DomainError {
    return new DomainError('conflict', code, detail, undefined, members);
  }

  static versionMismatch(detail = 'The resource has changed since it was read (If-Match mismatch).'): DomainError {
    return new DomainError('version_mismatch', 'version_mismatch', detail);
  }

  static invalid(code: string, detail: string, fieldErrors?: FieldError[]): DomainError {
    return new DomainError('invalid', code, detail, fieldErrors);
  }

  /** An invalid value of one field: the detail is also that field's message. */
  static invalidField(code: string, path: string, message: string): DomainError {
    return new DomainError('invalid', code, message, [{ path, message }]);
  }

  static limit(code: string, detail: string): DomainError {
    return new DomainError('limit', code, detail);
  }

  static malformed(code: string, detail: string): DomainError {
    return new DomainError('malformed', code, detail);
  }
}

export const isDomainError = (error: unknown, kind?: DomainErrorKind): error is DomainError =>
  error instanceof DomainError && (kind === undefined || error.kind === kind);
