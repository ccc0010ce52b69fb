import * as z from 'zod/mini';
import { lazySchema } from '../platform/validation';
import { email } from '../tenants/schemas';

export const LoginBody = lazySchema(() =>
  z.strictObject({ email, password: z.string().check(z.minLength(1), z.maxLength(256)) }),
);
export const RefreshBody = lazySchema(() =>
  z.strictObject({ refresh_token: z.string().check(z.minLength(1), z.maxLength(4096)) }),
);
export const EmptyBody = lazySchema(() => z.strictObject({}));
