// Public: customer fields, reused by other features' request schemas.
import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { idOf, nonEmptyPatch, trimmed, lazySchema } from '../platform/validation';
import { normalisePhone } from './customer';

export const customerId = idOf('cus', 'customer');
/** Only the length is checked here; requirePhone normalises the number (422 when it is not E.164). */
export const phone = z
  .string()
  .check(
    z.minLength(8),
    z.maxLength(20),
    z.meta({ description: 'International format (E.164), e.g. +4915112345678.' }),
  );

/** A customer named by id, or by phone (found, or created on first contact) with an optional name. */
export const customerRef = z
  .strictObject({ id: z.optional(customerId), phone: z.optional(phone), name: z.optional(trimmed(1, 200)) })
  .check(z.refine((c) => (c.id === undefined) !== (c.phone === undefined), 'give either `id` or `phone`'));

/** `phone` finds one customer (a `+` may arrive as a space: unencoded in a query string, it means one). */
export const ListCustomersQuery = lazySchema(() =>
  z.strictObject({
    ...pageQuery,
    phone: z.optional(
      z.string().check(
        z.maxLength(40),
        z.refine((v) => normalisePhone(v) !== null, 'must be a phone number in international format (E.164)'),
        z.meta({ description: 'Finds the one customer with this number (E.164, e.g. +4915112345678).' }),
      ),
    ),
    name: z.optional(
      trimmed(1, 100).check(
        z.meta({
          description:
            'The customers whose name, or the rest of it from one of its next four words, starts with this text, ignoring case and accents (`jose` finds José ' +
            'Álvarez), A to Z. Not with `phone`.',
        }),
      ),
    ),
  }),
);

/** A customer's name: text, or null to clear it. */
export const UpdateCustomerBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      name: z.optional(
        z.nullable(trimmed(1, 200)).check(z.meta({ description: 'The name staff know them by; null clears it.' })),
      ),
    }),
  ),
);
