import { conflict } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { newId } from '../platform/ids';
import { hashPassword } from '../auth/passwords';
import { CreateUserBody } from './schemas';
import { createUser } from './store';
import { toPublicUser, type User } from './user';

export const handler = httpHandler('users-create', { body: CreateUserBody }, async ({ body, principal, now }) => {
  const { tenant } = tenantPrincipal(principal);
  const at = now.toISOString();
  const user: User = {
    id: newId('usr'),
    tenant_id: tenant.id,
    email: body.email,
    name: body.name ?? null,
    role: body.role,
    status: 'active',
    password_hash: await hashPassword(body.password),
    created_at: at,
    updated_at: at,
    version: 1,
  };
  if (!(await createUser(user))) throw conflict('email_taken', 'A user with this email already exists in this tenant.');
  return { status: 201, headers: { ...etag(user.version), Location: `/api/v1/users/${user.id}` }, body: toPublicUser(user) };
});
