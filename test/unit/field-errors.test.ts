import * as z from 'zod/mini';
import { fieldErrors, trimmed } from '../../functions/platform/validation';

const Body = z.strictObject({
  name: trimmed(1, 100),
  tags: z.optional(z.array(z.string()).check(z.maxLength(2))),
  count: z.optional(z.number().check(z.minimum(1), z.lt(10))),
  nested: z.optional(z.strictObject({ id: z.string() })),
  email: z.optional(z.string().check(z.refine((v) => v.includes('@'), 'must be an email address'))),
  status: z.optional(z.enum(['open', 'resolved'])),
  contact: z.optional(z.email()),
  at: z.optional(z.iso.datetime({ offset: true })),
  slug: z.optional(z.string().check(z.regex(/^[a-z]+$/))),
  data: z.optional(
    z.record(z.string().check(z.maxLength(4)), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  ),
});

const errorsOf = (body: unknown) => {
  const parsed = Body.safeParse(body);
  if (parsed.success) throw new Error('expected a failure');
  return fieldErrors(parsed.error);
};

describe('field errors in plain words', () => {
  it.each([
    [{ name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters'],
    [{ name: '   ' }, 'name', 'must not be empty'],
    [{}, 'name', 'is required'],
    [{ name: 7 }, 'name', 'must be a string'],
    [{ name: 'a', tags: ['a', 'b', 'c'] }, 'tags', 'must be at most 2 items'],
    [{ name: 'a', count: 0 }, 'count', 'must be at least 1'],
    [{ name: 'a', count: 10 }, 'count', 'must be less than 10'],
    [{ name: 'a', nested: [] }, 'nested', 'must be an object'],
    [{ name: 'a', nested: { id: 'x', extra: 1 } }, 'nested', 'unknown field: extra'],
    [{ name: 'a', colour: 'red', size: 2 }, '(root)', 'unknown fields: colour, size'],
    [{ name: 'a', status: 'closed' }, 'status', 'must be one of open, resolved'],
    [{ name: 'a', contact: 'nobody' }, 'contact', 'must be an email address'],
    [{ name: 'a', at: 'tomorrow' }, 'at', 'must be an ISO 8601 date and time'],
    [{ name: 'a', slug: 'A1' }, 'slug', 'is not in the expected format'],
    [{ name: 'a', data: { toolong: 1 } }, 'data.toolong', 'the name must be at most 4 characters'],
    [{ name: 'a', data: { ok: {} } }, 'data.ok', 'must be a string, a number, a boolean or null'],
  ])('%j → %s %s', (body, path, message) => {
    expect(errorsOf(body)).toContainEqual({ path, message });
  });

  it("keeps a schema's own message", () => {
    expect(errorsOf({ name: 'a', email: 'nobody' })).toEqual([{ path: 'email', message: 'must be an email address' }]);
    expect(errorsOf({ name: 'a\u0007' })).toEqual([{ path: 'name', message: 'must not contain control characters' }]);
  });
});
