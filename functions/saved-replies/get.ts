import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { getSavedReply } from './store';

export const handler = httpHandler('saved-replies-get', {}, async ({ params, principal }) => {
  const id = params.id ?? '';
  const reply = isId('rpl', id) ? await getSavedReply(tenantPrincipal(principal).tenant.id, id) : undefined;
  if (!reply) throw notFound('The saved reply');
  return { status: 200, headers: etag(reply.version), body: reply };
});
