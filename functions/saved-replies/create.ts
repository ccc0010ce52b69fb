import { senderOf } from '../auth/principal';
import { etag, httpHandler, tenantPrincipal } from '../http/handler';
import { CreateSavedReplyBody } from './schemas';
import { createSavedReply } from './service';

/** A saved reply for the whole team; 409 `shortcut_taken` when another reply has the shortcut. */
export const handler = httpHandler(
  'saved-replies-create',
  { body: CreateSavedReplyBody },
  async ({ body, principal, now }) => {
    const caller = tenantPrincipal(principal);
    const reply = await createSavedReply(caller.tenant.id, body, senderOf(caller), now);
    return {
      status: 201,
      headers: { ...etag(reply.version), Location: `/api/v1/saved-replies/${reply.id}` },
      body: reply,
    };
  },
);
