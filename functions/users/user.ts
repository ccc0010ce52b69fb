// Public: the user model (pure): roles and status.
import type { Role } from '../../catalog/routes';

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
  /** Set when the password changes or the user is disabled: sessions from before it are dead. */
  credentials_changed_at?: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export type PublicUser = Omit<User, 'password_hash' | 'credentials_changed_at'>;

/** Never expose the password hash. */
export function toPublicUser(u: User): PublicUser {
  return {
    id: u.id,
    tenant_id: u.tenant_id,
    email: u.email,
    name: u.name ?? null,
    role: u.role,
    status: u.status,
    created_at: u.created_at,
    updated_at: u.updated_at,
    version: u.version,
  };
}

/** Only active admins count towards the rule that a tenant always keeps one. */
export const isActiveAdmin = (u: Pick<User, 'role' | 'status'>) => u.role === 'admin' && u.status === 'active';

/** How a change moves the tenant's count of active admins: -1, 0 or +1. */
export const activeAdminDelta = (before: Pick<User, 'role' | 'status'>, after: Pick<User, 'role' | 'status'>) =>
  Number(isActiveAdmin(after)) - Number(isActiveAdmin(before));
