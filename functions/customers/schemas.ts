import * as z from 'zod/mini';
import { isId } from '../platform/ids';
import { trimmed } from '../platform/validation';

export const customerId = z.string().check(z.refine((v) => isId('cus', v), 'must be a customer id (cus_…)'));
/** Only the length is checked here; requirePhone normalises the number (422 when it is not E.164). */
export const phone = z.string().check(z.minLength(8), z.maxLength(20));

/** A customer named by id, or by phone (found, or created on first contact) with an optional name. */
export const customerRef = z
  .strictObject({ id: z.optional(customerId), phone: z.optional(phone), name: z.optional(trimmed(1, 200)) })
  .check(z.refine((c) => (c.id === undefined) !== (c.phone === undefined), 'give either `id` or `phone`'));
