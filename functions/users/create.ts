import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateUserBody } from './schemas';
import { createUser } from './service';
import { toPublicUser } from './user';

export const handler = httpHandler('users-create', { body: CreateUserBody }, async ({ body, principal, now }) => {
  const user = await createUser(tenantPrincipal(principal).tenant.id, body, now);
  return {
    status: 201,
    headers: { ...etag(user.version), Location: `/api/v1/users/${user.id}` },
    body: toPublicUser(user),
  };
});
