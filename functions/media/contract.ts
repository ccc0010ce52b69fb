// Public: the API schemas of media, shown on messages.
import * as z from 'zod/mini';
import { defineContract, named, resourceId, timestamp } from '../platform/api-contract';
import { ATTACHMENT_TYPES, MEDIA_STATUSES } from './media';

export const MessageMedia = named(
  'MessageMedia',
  z.object({
    id: resourceId('med'),
    type: z.enum(ATTACHMENT_TYPES),
    mime_type: z.string(),
    size: z.nullable(z.int()).check(z.meta({ description: 'Bytes; null until a customer\u2019s file is stored.' })),
    filename: z.nullable(z.string()),
    caption: z.nullable(z.string()),
    status: z.enum(MEDIA_STATUSES).check(
      z.meta({
        description:
          '`pending`: a customer\u2019s file is being copied from WhatsApp; `stored`: downloadable; `failed`: WhatsApp no longer has it (see `error`).',
      }),
    ),
    error: z.nullable(z.object({ code: z.string(), message: z.string() })),
    download_url: z.nullable(z.string()).check(
      z.meta({
        description:
          'A presigned URL to GET the file, valid until `expires_at` (15 minutes); fresh on every read. Null unless `stored`, and in events.',
      }),
    ),
    expires_at: z.nullable(timestamp),
  }),
);

export const MediaUpload = named(
  'MediaUpload',
  z.object({
    media_id: resourceId('med'),
    upload_url: z
      .string()
      .check(z.meta({ description: 'PUT the file\u2019s bytes here, with `headers`, before `expires_at`.' })),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expires_at: timestamp,
  }),
);

export const contract = defineContract({
  'media-uploads-create': {
    operationId: 'createMediaUpload',
    summary: 'Upload a file to send',
    description:
      'Declares a file (its kind, MIME type and size, within WhatsApp\u2019s limits: image 5 MB JPEG or PNG, video 16 MB MP4 or 3GPP, ' +
      'audio 16 MB AAC, AMR, MP3, MP4 or OGG, document 100 MB PDF, text or Office, sticker 500 KB WebP) and returns a presigned URL ' +
      'to PUT its bytes to, for 15 minutes. Then send it: `{"image": {"media_id": "med_…"}}` on a conversation\u2019s messages. ' +
      'Files are kept for the media retention (90 days).',
    responses: { 201: { description: 'Where to PUT the file.', body: MediaUpload } },
    errors: { 422: ['unsupported_media'] },
    requestExample: { type: 'document', mime_type: 'application/pdf', size: 48213, filename: 'invoice.pdf' },
  },
});
