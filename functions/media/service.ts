// Public: a send by `media_id` checks its upload with it.
import { DomainError } from '../platform/domain-error';
import { baseMimeType, mediaProblem, newMedia, type AttachmentType, type MessageMedia } from './media';
import { getUpload, headMediaObject } from './store';

/**
 * An uploaded file, ready to send as `type`: uploaded by this tenant, of that kind, and its object there
 * with the declared type and a size within WhatsApp's limit (S3 held the PUT to the signed length; the
 * check here holds for any store). Throws a 422 naming the fix otherwise.
 */
export async function uploadedMedia(
  tenantId: string,
  mediaId: string,
  type: AttachmentType,
  path: string,
  extra: { caption?: string | null; filename?: string | null },
): Promise<MessageMedia> {
  const upload = await getUpload(tenantId, mediaId);
  if (!upload)
    throw DomainError.invalidField(
      'media_not_found',
      path,
      'No uploaded file has this id: create one with POST /media/uploads.',
    );
  if (upload.type !== type)
    throw DomainError.invalidField('unsupported_media', path, `This file was uploaded as ${upload.type}, not ${type}.`);
  const object = await headMediaObject(tenantId, mediaId);
  if (!object)
    throw DomainError.invalidField(
      'media_not_uploaded',
      path,
      'The file was never PUT to its upload_url (or it has expired): upload it, then send.',
    );
  const problem =
    baseMimeType(object.mimeType) !== baseMimeType(upload.mime_type)
      ? `The file was declared ${upload.mime_type} but uploaded as ${object.mimeType}.`
      : mediaProblem(type, object.mimeType, object.size);
  if (problem) throw DomainError.invalidField('unsupported_media', path, problem);
  return newMedia({
    id: mediaId,
    type,
    mime_type: upload.mime_type,
    size: object.size,
    status: 'stored',
    filename: extra.filename ?? upload.filename,
    caption: extra.caption ?? null,
  });
}
