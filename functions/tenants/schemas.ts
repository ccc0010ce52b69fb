// Public: shared fields (email, password), reused by other features' request schemas.
import { pageQuery } from '../platform/pagination';
import * as z from 'zod/mini';
import { nonEmptyPatch, timezone, trimmed, lazySchema } from '../platform/validation';
import { LANGUAGES } from '../ai/taxonomy';
import { PLANS } from './tenant';

export const email = z
  .pipe(z.string().check(z.trim(), z.toLowerCase()), z.email().check(z.maxLength(254)))
  .check(z.meta({ format: 'email' }));
/** Length is what makes a password strong; 10 is the floor, 256 keeps scrypt input bounded. */
export const password = z.string().check(z.minLength(10, 'must be at least 10 characters'), z.maxLength(256));
const rateLimitPerHour = z.int().check(z.minimum(1), z.maximum(10_000_000));
const name = trimmed(1, 200);

export const CreateTenantBody = lazySchema(() =>
  z.strictObject({
    name,
    plan: z.enum(PLANS),
    rate_limit_per_hour: z.optional(rateLimitPerHour),
    timezone: z.optional(timezone()),
    default_language: z.optional(z.enum(LANGUAGES)),
    admin: z.strictObject({ email, password, name: z.optional(name) }),
  }),
);

export const UpdateTenantBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      name: z.optional(name),
      plan: z.optional(z.enum(PLANS)),
      rate_limit_per_hour: z.optional(z.nullable(rateLimitPerHour)),
      status: z.optional(z.enum(['active', 'suspended'])),
      timezone: z.optional(timezone()),
      default_language: z.optional(z.enum(LANGUAGES)),
    }),
  ),
);

/** What a tenant's admins change themselves: the plan, its limit and the status stay the operator's. */
export const UpdateSettingsBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      name: z.optional(name),
      timezone: z.optional(timezone()),
      default_language: z.optional(z.enum(LANGUAGES)),
    }),
  ),
);

export const ListTenantsQuery = lazySchema(() => z.strictObject(pageQuery));
