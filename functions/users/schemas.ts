import { pageQuery } from '../platform/pagination';
import * as z from 'zod/mini';
import { nonEmptyPatch, trimmed, lazySchema } from '../platform/validation';
import { email, password } from '../tenants/schemas';

const name = trimmed(1, 200);
const role = z.enum(['admin', 'agent']);

export const CreateUserBody = lazySchema(() =>
  z.strictObject({
    email,
    password,
    name: z.optional(name),
    role: z._default(role, 'agent'),
  }),
);

export const UpdateUserBody = lazySchema(() =>
  nonEmptyPatch(
    z.strictObject({
      name: z.optional(z.nullable(name)),
      role: z.optional(role),
      status: z.optional(z.enum(['active', 'disabled'])),
      password: z.optional(password),
    }),
  ),
);

export const ListUsersQuery = lazySchema(() => z.strictObject(pageQuery));
