import { conflict, notFound, unprocessable } from '../platform/errors';
import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { hashPassword } from '../auth/passwords';
import { UpdateUserBody } from './schemas';
import { LastActiveAdmin, updateUser } from './store';
import { toPublicUser } from './user';

export const handler = httpHandler('users-update', { body: UpdateUserBody }, async ({ params, body, principal, now, event }) => {
  const caller = tenantPrincipal(principal);
  const id = params.id ?? '';
  if (!isId('usr', id)) throw notFound('The user');
  // An admin cannot lock themselves out by demoting or disabling their own account.
  if (caller.kind === 'user' && caller.userId === id && ((body.role && body.role !== 'admin') || body.status === 'disabled')) {
    throw unprocessable('cannot_demote_self', 'You cannot demote or disable your own account.');
  }
  const credentialsChanged = body.password !== undefined || body.status === 'disabled';
  const changes = {
    name: body.name,
    role: body.role,
    status: body.status,
    password_hash: body.password ? await hashPassword(body.password) : undefined,
    credentials_changed_at: credentialsChanged ? now.toISOString() : undefined,
  };
  // The last-admin rule is checked by the write itself (a counter in the same transaction), so two
  // admins demoted at once cannot both pass it.
  const user = await updateUser(caller.tenant.id, id, changes, now.toISOString(), ifMatchVersion(event)).catch((error) => {
    if (error instanceof LastActiveAdmin) throw conflict('last_admin', 'This is the tenant\u2019s last active admin; promote another user first.');
    throw error;
  });
  return { status: 200, headers: etag(user.version), body: toPublicUser(user) };
});
