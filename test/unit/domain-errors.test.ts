import { problemErrors, problemOf } from '../../functions/http/middleware';
import { DomainError, isDomainError } from '../../functions/platform/domain-error';
import { ApiError, problemResponse, problemType } from '../../functions/platform/errors';

/** The problem+json body an error becomes, as a client sees it. */
function bodyOf(error: unknown) {
  const problem = problemOf(error);
  if (!problem) throw new Error('no problem for this error');
  const response = problemResponse(problem, 'req-1');
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body) as Record<string, unknown>,
  };
}

describe('domain errors become problem+json in one place', () => {
  it.each([
    [DomainError.notFound('The booking'), 404, 'Not Found', 'not_found', 'The booking was not found.'],
    [
      DomainError.conflict('booking_conflict', 'Resource chair-1 is already booked.'),
      409,
      'Conflict',
      'booking_conflict',
      'Resource chair-1 is already booked.',
    ],
    [
      DomainError.versionMismatch(),
      412,
      'Precondition Failed',
      'version_mismatch',
      'The resource has changed since it was read (If-Match mismatch).',
    ],
    [
      DomainError.invalid('cannot_demote_self', 'You cannot demote or disable your own account.'),
      422,
      'Unprocessable Content',
      'cannot_demote_self',
      'You cannot demote or disable your own account.',
    ],
    [
      DomainError.limit('too_many_webhooks', 'A tenant can have at most 50 webhook endpoints.'),
      422,
      'Unprocessable Content',
      'too_many_webhooks',
      'A tenant can have at most 50 webhook endpoints.',
    ],
    [
      DomainError.malformed('invalid_cursor', 'The pagination cursor is invalid or was issued for another list.'),
      400,
      'Bad Request',
      'invalid_cursor',
      'The pagination cursor is invalid or was issued for another list.',
    ],
  ])('%s → %i', (error, status, title, code, detail) => {
    const { body, headers } = bodyOf(error);
    expect(headers['Content-Type']).toBe('application/problem+json');
    expect(body).toEqual({ type: problemType(code), title, status, detail, code, request_id: 'req-1' });
  });

  it('carries field errors, with the detail as the message of an invalid field', () => {
    expect(
      bodyOf(
        DomainError.invalidField(
          'invalid_plan_limit',
          'rate_limit_per_hour',
          'The enterprise plan needs rate_limit_per_hour.',
        ),
      ).body,
    ).toMatchObject({
      status: 422,
      code: 'invalid_plan_limit',
      detail: 'The enterprise plan needs rate_limit_per_hour.',
      errors: [{ path: 'rate_limit_per_hour', message: 'The enterprise plan needs rate_limit_per_hour.' }],
    });
    expect(
      bodyOf(
        DomainError.invalid('unknown_customer', 'No customer has this id.', [
          { path: 'customer.id', message: 'not found' },
        ]),
      ).body.errors,
    ).toEqual([{ path: 'customer.id', message: 'not found' }]);
  });

  it('leaves HTTP errors as they are, makes throttling a 503 and anything else unexpected', () => {
    const http = new ApiError(401, 'invalid_api_key', 'The API key is invalid or has been revoked.');
    expect(problemOf(http)).toBe(http);
    expect(problemOf(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }))).toMatchObject({
      status: 503,
      code: 'dependency_throttled',
    });
    expect(problemOf(new Error('boom'))).toBeUndefined();
  });

  it('makes a transaction cancelled by a concurrent one a 503 to retry, not a 500', () => {
    const cancelled = (code: string) =>
      Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'None' }, { Code: code }],
      });
    expect(problemOf(cancelled('TransactionConflict'))).toMatchObject({
      status: 503,
      code: 'dependency_throttled',
      extra: { headers: { 'Retry-After': '1' } },
    });
    expect(problemOf(cancelled('ThrottlingError'))).toMatchObject({ status: 503 });
    // A failed condition is the caller's to map; unmapped, it stays unexpected.
    expect(problemOf(cancelled('ConditionalCheckFailed'))).toBeUndefined();
  });

  it('are told apart by kind', () => {
    const error = DomainError.conflict('last_admin', 'x');
    expect(isDomainError(error)).toBe(true);
    expect(isDomainError(error, 'conflict')).toBe(true);
    expect(isDomainError(error, 'version_mismatch')).toBe(false);
    expect(isDomainError(new Error('x'))).toBe(false);
  });
});

describe('an unexpected error', () => {
  it('answers 500 problem+json and counts a server_error metric, with Metrics loaded then (#metrics)', async () => {
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => written.push(String(chunk)) > 0;
    const request = { event: {}, context: {}, response: undefined, error: new Error('boom'), internal: {} };
    try {
      await problemErrors().onError!(request as never);
    } finally {
      process.stdout.write = write;
    }
    const response = request.response as unknown as { statusCode: number; headers: Record<string, string> };
    expect(response.statusCode).toBe(500);
    expect(response.headers['Content-Type']).toBe('application/problem+json');
    const emf = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(emf).toEqual([expect.objectContaining({ server_error: 1 })]);
  });
});
