// Public: conversations fill in the download URLs of the messages they return.
import type { MessageMedia } from './media';
import { presignDownload } from './store';

/**
 * Messages as the API returns them: each stored file given a fresh short-lived download URL (presigning
 * is computed here, with no request to S3), so a URL is never kept anywhere it could outlive its use.
 */
export async function withDownloadUrls<M extends { tenant_id: string; media?: MessageMedia | null }>(
  messages: M[],
  now: Date,
): Promise<M[]> {
  return Promise.all(messages.map((m) => withDownloadUrl(m, now)));
}

export async function withDownloadUrl<M extends { tenant_id: string; media?: MessageMedia | null }>(
  message: M,
  now: Date,
): Promise<M> {
  const media = message.media;
  if (!media || media.status !== 'stored') return message;
  const { url, expiresAt } = await presignDownload(message.tenant_id, media, now);
  return { ...message, media: { ...media, download_url: url, expires_at: expiresAt.toISOString() } };
}
