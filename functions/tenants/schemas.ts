import { z } from 'zod';
import { pageQuery } from '../platform/pagination';
import { PLANS } from './tenant';

export const email = z.string().trim().toLowerCase().pipe(z.email().max(254));
/** Length is what makes a password strong; 10 is the floor, 256 keeps scrypt input bounded. */
export const password = z.string().min(10, 'must be at least 10 characters').max(256);
const rateLimitPerHour = z.number().int().min(1).max(10_000_000);

export const CreateTenantBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  plan: z.enum(PLANS),
  rate_limit_per_hour: rateLimitPerHour.optional(),
  admin: z.strictObject({ email, password, name: z.string().trim().min(1).max(200).optional() }),
});

export const UpdateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    plan: z.enum(PLANS).optional(),
    rate_limit_per_hour: rateLimitPerHour.nullable().optional(),
    status: z.enum(['active', 'suspended']).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one field to change');

export const ListTenantsQuery = z.strictObject(pageQuery);
