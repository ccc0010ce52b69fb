import { httpHandler, tenantPrincipal } from '../http/handler';
import { requirePhone } from '../customers/customer';
import { receiveInbound } from '../conversations/service';
import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { mediaPlaceholder, mediaProblem, newMedia, type MessageMedia } from '../media/media';
import { putMediaObject } from '../media/store';
import { withDownloadUrl } from '../media/downloads';
import { SandboxInboundBody } from './schemas';
import { tapPayloadOf } from '../reminders/reminder';

type Body = ReturnType<typeof SandboxInboundBody.parse>;

/**
 * The sandbox's file, stored before its message (as WhatsApp media is fetched before it is shown): a
 * repeated delivery leaves an object no message names, which the bucket's lifecycle expires.
 */
async function storeSandboxMedia(tenantId: string, file: NonNullable<Body['media']>): Promise<MessageMedia> {
  const bytes = Buffer.from(file.data, 'base64');
  const problem = mediaProblem(file.type, file.mime_type, bytes.byteLength);
  if (problem) throw DomainError.invalidField('unsupported_media', 'media', problem);
  const media = newMedia({
    id: newId('med'),
    type: file.type,
    mime_type: file.mime_type,
    status: 'stored',
    size: bytes.byteLength,
    filename: file.filename ?? null,
    caption: file.caption ?? null,
  });
  await putMediaObject(tenantId, media.id, bytes, file.mime_type);
  return media;
}

/** Injects a customer message on the sandbox channel, through the same path as a WhatsApp message. */
export const handler = httpHandler(
  'sandbox-inbound',
  { body: SandboxInboundBody },
  async ({ body, principal, now }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const phone = requirePhone(body.from, 'from');
    const media = body.media ? await storeSandboxMedia(tenantId, body.media) : null;
    const result = await receiveInbound(
      tenantId,
      'sandbox',
      null,
      {
        phone,
        name: body.name ?? null,
        text: body.text ?? (media ? mediaPlaceholder(media) : ''),
        providerId: body.provider_message_id ?? null,
        sentAt: body.sent_at ? new Date(body.sent_at) : undefined,
        media,
        replyPayload: tapPayloadOf(body.payload),
      },
      now,
    );
    if (!result) return { status: 200, body: { duplicate: true } };
    return {
      status: 201,
      body: { conversation: result.conversation, message: await withDownloadUrl(result.message, now) },
    };
  },
);
