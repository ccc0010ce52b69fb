import { httpHandler, tenantPrincipal } from '../http/handler';
import { notFound } from '../platform/errors';
import { isId } from '../platform/ids';
import { RenderSavedReplyBody } from './schemas';
import { renderSavedReply } from './service';

/** The reply as it would be sent in one conversation; nothing is sent or stored. */
export const handler = httpHandler(
  'saved-replies-render',
  { body: RenderSavedReplyBody },
  async ({ params, body, principal }) => {
    const id = params.id ?? '';
    if (!isId('rpl', id)) throw notFound('The saved reply');
    return { status: 200, body: await renderSavedReply(tenantPrincipal(principal), id, body.conversation_id) };
  },
);
