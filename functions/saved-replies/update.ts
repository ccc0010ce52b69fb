import { etag, httpHandler, ifMatchVersion, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { UpdateSavedReplyBody } from './schemas';
import { updateSavedReply } from './service';

export const handler = httpHandler(
  'saved-replies-update',
  { body: UpdateSavedReplyBody },
  async ({ params, body, principal, now, event }) => {
    const id = params.id ?? '';
    if (!isId('rpl', id)) throw notFound('The saved reply');
    const reply = await updateSavedReply(tenantPrincipal(principal).tenant.id, id, body, ifMatchVersion(event), now);
    return { status: 200, headers: etag(reply.version), body: reply };
  },
);
