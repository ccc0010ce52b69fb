import * as z from 'zod/mini';
import { named, resourceId } from '../platform/api-contract';

/** A customer as conversations and bookings embed them. */
export const CustomerRef = named(
  'CustomerRef',
  z.object({
    id: resourceId('cus'),
    name: z.nullable(z.string()),
    phone: z
      .string()
      .check(z.meta({ pattern: '^\\+[1-9]\\d{7,14}$', description: 'E.164.', examples: ['+4915112345678'] })),
  }),
);
