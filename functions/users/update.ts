import { notFound } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { UpdateUserBody } from './schemas';
import { updateUser } from './service';
import { toPublicUser } from './user';

export const handler = httpHandler(
  'users-update',
  { body: UpdateUserBody },
  async ({ params, body, principal, now, event }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('usr', id)) throw notFound('The user');
    const actingUserId = caller.kind === 'user' ? caller.userId : undefined;
    const user = await updateUser(
      caller.tenant.id,
      id,
      body,
      { actingUserId, expectedVersion: ifMatchVersion(event) },
      now,
    );
    return { status: 200, headers: etag(user.version), body: toPublicUser(user) };
  },
);
