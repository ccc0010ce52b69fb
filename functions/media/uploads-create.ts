import { httpHandler, tenantPrincipal } from '../http/handler';
import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { BUCKETS } from '../../catalog/resources';
import { baseMimeType, MEDIA_RULES, mediaProblem } from './media';
import { presignUpload, putUpload } from './store';
import { CreateUploadBody } from './schemas';

/**
 * 201: a presigned PUT for a file to send, held to WhatsApp's MIME allowlist and size limit for its
 * kind; its record lets a send by `media_id` check what was declared against what arrived.
 */
export const handler = httpHandler(
  'media-uploads-create',
  { body: CreateUploadBody },
  async ({ body, principal, now }) => {
    const tenantId = tenantPrincipal(principal).tenant.id;
    const problem = mediaProblem(body.type, body.mime_type, body.size);
    if (problem) {
      const typeAllowed = MEDIA_RULES[body.type].mimeTypes.includes(baseMimeType(body.mime_type));
      throw DomainError.invalidField('unsupported_media', typeAllowed ? 'size' : 'mime_type', problem);
    }
    const id = newId('med');
    const upload = await presignUpload(tenantId, id, body.mime_type, body.size, now);
    await putUpload(
      {
        id,
        tenant_id: tenantId,
        type: body.type,
        mime_type: body.mime_type,
        size: body.size,
        filename: body.filename ?? null,
        created_at: now.toISOString(),
        upload_expires_at: upload.expiresAt.toISOString(),
      },
      BUCKETS.media.retentionDays,
    );
    return {
      status: 201,
      body: {
        media_id: id,
        upload_url: upload.url,
        method: 'PUT',
        headers: upload.headers,
        expires_at: upload.expiresAt.toISOString(),
      },
    };
  },
);
