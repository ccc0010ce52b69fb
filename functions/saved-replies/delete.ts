import { httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { removeSavedReply } from './service';

export const handler = httpHandler('saved-replies-delete', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  if (!isId('rpl', id)) throw notFound('The saved reply');
  await removeSavedReply(tenantPrincipal(principal).tenant.id, id);
  return { status: 204 };
});
