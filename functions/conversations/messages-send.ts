import { notFound } from '../platform/errors';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { isId } from '../platform/ids';
import { SendMessageBody } from './schemas';
import { sendMessage } from './service';
import { senderOf } from '../auth/principal';
import { MEDIA_KINDS, type OutboundKind } from './message-kinds';
import { withDownloadUrl } from '../media/downloads';

type Body = ReturnType<typeof SendMessageBody.parse>;

/** The one kind the body gives (the schema checked there is exactly one). */
function kindOfBody(body: Body): OutboundKind {
  if (body.template) return { type: 'template', template: body.template };
  if (body.interactive) return { type: 'interactive', interactive: body.interactive };
  for (const type of MEDIA_KINDS) {
    const media = body[type];
    if (media) return { type, media };
  }
  return { type: 'text', text: body.text ?? '' };
}

/**
 * 202: the message is queued (or `scheduled` with `send_at`); its status moves to sent, delivered, read or
 * failed as receipts arrive.
 */
export const handler = httpHandler(
  'messages-send',
  { body: SendMessageBody },
  async ({ params, body, principal, now }) => {
    const caller = tenantPrincipal(principal);
    const id = params.id ?? '';
    if (!isId('conv', id)) throw notFound('The conversation');
    const message = await sendMessage(
      caller.tenant.id,
      id,
      {
        kind: kindOfBody(body),
        fallbackTemplate: body.fallback_template,
        sendAt: body.send_at ? new Date(body.send_at) : undefined,
      },
      senderOf(caller),
      now,
    );
    return {
      status: 202,
      headers: { Location: `/api/v1/conversations/${id}/messages` },
      body: await withDownloadUrl(message, now),
    };
  },
);
