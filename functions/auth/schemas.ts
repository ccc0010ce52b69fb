import * as z from 'zod/mini';
import { email } from '../tenants/schemas';

export const LoginBody = z.strictObject({ email, password: z.string().check(z.minLength(1), z.maxLength(256)) });
export const RefreshBody = z.strictObject({ refresh_token: z.string().check(z.minLength(1), z.maxLength(4096)) });
export const EmptyBody = z.strictObject({});
