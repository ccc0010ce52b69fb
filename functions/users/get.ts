import { notFound } from '../platform/errors';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { getUser } from './store';
import { toPublicUser } from './user';

export const handler = httpHandler('users-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const user = isId('usr', id) ? await getUser(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!user) throw notFound('The user');
  return { status: 200, headers: etag(user.version), body: toPublicUser(user) };
});
