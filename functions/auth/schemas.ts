import { z } from 'zod';
import { email } from '../tenants/schemas';

export const LoginBody = z.strictObject({ email, password: z.string().min(1).max(256) });
export const RefreshBody = z.strictObject({ refresh_token: z.string().min(1).max(4096) });
export const EmptyBody = z.strictObject({});
