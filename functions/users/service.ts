import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { changesNothing } from '../platform/fields';
import { retryOnConflict } from '../platform/retry';
import { hashPassword } from '../auth/passwords';
import type { Role } from '../../catalog/routes';
import { getUser, insertUser, saveUserChange, UserChanged, type UserChanges } from './store';
import type { User, UserStatus } from './user';

/** Users of a tenant: creation and changes, with the rules that keep every tenant an active admin. */

const tooFast = () => DomainError.conflict('concurrent_update', 'Users of this tenant are changing too fast; retry.');

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  role: Role;
}

export async function createUser(tenantId: string, input: NewUser, now: Date): Promise<User> {
  const at = now.toISOString();
  const user: User = {
    id: newId('usr'),
    tenant_id: tenantId,
    email: input.email,
    name: input.name ?? null,
    role: input.role,
    status: 'active',
    password_hash: await hashPassword(input.password),
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const created = await retryOnConflict(() => insertUser(user), {
    attempts: 10,
    retryable: (error) => error instanceof UserChanged,
    exhausted: tooFast,
  });
  if (!created) throw DomainError.conflict('email_taken', 'A user with this email already exists in this tenant.');
  return user;
}

export interface UserPatch {
  name?: string | null;
  role?: Role;
  status?: UserStatus;
  password?: string;
}

/**
 * Changes a user. `actingUserId` is the caller's own user (a login session), if any: an admin cannot
 * lock themselves out by demoting or disabling their own account. The last-admin rule is checked by the
 * write itself (a counter in the same transaction, see store.ts), so two admins demoted at once cannot
 * both pass it. With If-Match (`expectedVersion`) a concurrent change is a version mismatch; without, the
 * change is applied to the user as read again. Disabling a user also returns their unresolved
 * conversations to the team's queue: the stream-reactions worker's assignment release does it off the stream.
 */
export async function updateUser(
  tenantId: string,
  userId: string,
  patch: UserPatch,
  opts: { actingUserId?: string; expectedVersion?: number },
  now: Date,
): Promise<User> {
  if (opts.actingUserId === userId && ((patch.role && patch.role !== 'admin') || patch.status === 'disabled')) {
    throw DomainError.invalid('cannot_demote_self', 'You cannot demote or disable your own account.');
  }
  const credentialsChanged = patch.password !== undefined || patch.status === 'disabled';
  const changes: UserChanges = {
    name: patch.name,
    role: patch.role,
    status: patch.status,
    password_hash: patch.password ? await hashPassword(patch.password) : undefined,
    credentials_changed_at: credentialsChanged ? now.toISOString() : undefined,
  };
  const strict = opts.expectedVersion !== undefined;
  return retryOnConflict(
    async () => {
      const before = await getUser(tenantId, userId);
      if (!before) throw DomainError.notFound('The user');
      if (strict && before.version !== opts.expectedVersion) throw DomainError.versionMismatch();
      if (changesNothing(before, changes)) return before;
      return saveUserChange(before, changes, now.toISOString()).catch((error: unknown) => {
        throw strict && error instanceof UserChanged && error.what === 'user' ? DomainError.versionMismatch() : error;
      });
    },
    { attempts: 10, retryable: (error) => error instanceof UserChanged, exhausted: tooFast },
  );
}
