import { z } from 'zod';
import { pageQuery } from '../platform/pagination';
import { email, password } from '../tenants/schemas';

const name = z.string().trim().min(1).max(200);
const role = z.enum(['admin', 'agent']);

export const CreateUserBody = z.strictObject({ email, password, name: name.optional(), role: role.default('agent') });

export const UpdateUserBody = z
  .strictObject({ name: name.nullable().optional(), role: role.optional(), status: z.enum(['active', 'disabled']).optional(), password: password.optional() })
  .refine((b) => Object.keys(b).length > 0, 'send at least one field to change');

export const ListUsersQuery = z.strictObject(pageQuery);
