import type { Role } from '../../lib/routes';

/** Users of a tenant: pure types and rules. */
export type UserStatus = 'active' | 'disabled';

export interface User {
  id: string;
  tenant_id: string;
  email: string;
  name: string | null;
  role: Role;
  status: UserStatus;
  password_hash: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export type PublicUser = Omit<User, 'password_hash'>;

/** Never expose the password hash. */
export function toPublicUser(user: User): PublicUser {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
