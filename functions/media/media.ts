// Public: media kinds, WhatsApp's limits and the message's `media` shape, for conversations and channels.
/** Media attached to messages: WhatsApp's MIME allowlist and size limits, and the API's view. Pure: no AWS imports. */

export const ATTACHMENT_TYPES = ['image', 'document', 'audio', 'video', 'sticker'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
export const MEDIA_STATUSES = ['pending', 'stored', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

const MB = 1024 * 1024;
/**
 * WhatsApp Cloud API's supported media (Meta's "Supported media types"): the MIME types each kind takes
 * and its largest file. Inbound media is kept whatever its type (the customer sent it); uploads to send
 * are held to this list.
 */
export const MEDIA_RULES: Record<AttachmentType, { maxBytes: number; mimeTypes: readonly string[] }> = {
  image: { maxBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png'] },
  video: { maxBytes: 16 * MB, mimeTypes: ['video/mp4', 'video/3gpp'] },
  audio: {
    maxBytes: 16 * MB,
    mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'],
  },
  document: {
    maxBytes: 100 * MB,
    mimeTypes: [
      'text/plain',
      'application/pdf',
      'application/vnd.ms-powerpoint',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
  },
  sticker: { maxBytes: 500 * 1024, mimeTypes: ['image/webp'] },
};

/** The largest inbound file copied (WhatsApp's largest kind, documents); anything bigger fails. */
export const MAX_INBOUND_BYTES = 100 * MB;

/** `audio/ogg; codecs=opus` → `audio/ogg`: the allowlist names base types. */
export const baseMimeType = (mime: string) => mime.split(';')[0]!.trim().toLowerCase();

/** Why a file cannot be sent as `type` (undefined when it can), in words that name the fix. */
export function mediaProblem(type: AttachmentType, mimeType: string, size: number): string | undefined {
  const rule = MEDIA_RULES[type];
  if (!rule.mimeTypes.includes(baseMimeType(mimeType)))
    return `WhatsApp takes ${type} files of type ${rule.mimeTypes.join(', ')}; ${mimeType} is not one of them.`;
  if (size > rule.maxBytes)
    return `WhatsApp takes ${type} files of at most ${rule.maxBytes / MB >= 1 ? `${rule.maxBytes / MB} MB` : `${rule.maxBytes / 1024} KB`}; this one has ${size} bytes.`;
  if (size <= 0) return 'The file is empty.';
  return undefined;
}

/**
 * A message's media, as stored on the message and shown by the API: metadata only (the bytes are in the
 * media bucket, under a key built from the tenant and `id`). `download_url` and `expires_at` are null as
 * stored; reads fill them in with a short-lived presigned URL while the media is `stored`.
 */
export interface MessageMedia {
  id: string;
  type: AttachmentType;
  mime_type: string;
  size: number | null;
  filename: string | null;
  caption: string | null;
  status: MediaStatus;
  error: { code: string; message: string } | null;
  download_url: string | null;
  expires_at: string | null;
}

/** New media metadata (no URL yet). */
export const newMedia = (
  fields: Omit<MessageMedia, 'download_url' | 'expires_at' | 'error' | 'size' | 'filename' | 'caption'> &
    Partial<Pick<MessageMedia, 'size' | 'filename' | 'caption' | 'error'>>,
): MessageMedia => ({
  size: null,
  filename: null,
  caption: null,
  error: null,
  ...fields,
  download_url: null,
  expires_at: null,
});

/** How a file shows as text (previews, the AI's input) when its message has no words of its own. */
export const mediaPlaceholder = (media: Pick<MessageMedia, 'type' | 'filename' | 'caption'>) =>
  `[${media.type}${media.filename ? ` ${media.filename}` : ''}]${media.caption ? ` ${media.caption}` : ''}`;

/** The sandbox channel takes small files inline (base64), well within the API's 256 KB body. */
export const SANDBOX_MEDIA_MAX_BYTES = 150 * 1024;

/** How long a presigned download or upload URL works. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;
export const UPLOAD_URL_SECONDS = 15 * 60;
