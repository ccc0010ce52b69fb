// Public: the stream reactions queue inbound media for the media fetcher with it.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueBody, sqsClient } from '../platform/queue';
import { queueUrl } from '../platform/config';
import { logger } from '../platform/workers';
import { metrics } from '../platform/metrics';
import { MEDIA_FETCH_FAILED_METRIC } from '../../catalog/metrics';
import { newEvent } from '../events/store';
import { getConversation } from '../conversations/store';
import { mediaSourceOf, pendingMedia, settleMedia, type MessageRef } from '../conversations/message-store';
import type { Message } from '../conversations/conversation';
import { MAX_INBOUND_BYTES, type MessageMedia } from '../media/media';
import { putMediaObject } from '../media/store';
import { whatsAppPlatformApp } from '../platform/secrets';
import { routeWhatsAppNumber } from './store';
import { downloadWhatsAppMedia, GraphError, MediaTooLarge } from './whatsapp';

/**
 * Inbound media, copied off the webhook's path: a customer message written with a `pending` file is
 * queued here by the stream reaction (at least once), and the media fetcher copies the file from the
 * Graph API into the media bucket, then marks it `stored`, or `failed` with `conversation.message.failed`
 * when Meta no longer has it. Repeats change nothing: only a pending file is settled.
 */

/** The stream reaction: one queue message per inbound message written with a file to fetch. */
export async function queueMediaFetch(item: Record<string, unknown>): Promise<void> {
  if (!mediaSourceOf(item)) return;
  const ref: MessageRef = {
    tenant_id: String(item.tenant_id),
    conversation_id: String(item.conversation_id),
    message_id: String(item.id),
  };
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl('mediaFetch'), MessageBody: queueBody(ref) }));
}

const settle = async (message: Message, media: MessageMedia, now: Date) => {
  const written: Message = { ...message, media, updated_at: now.toISOString() };
  const events =
    media.status === 'failed'
      ? [
          newEvent(
            message.tenant_id,
            'conversation.message.failed',
            { message: written, conversation_id: message.conversation_id },
            now,
          ),
        ]
      : [];
  if ((await settleMedia(written, events)) && media.status === 'failed') {
    metrics.addMetric(MEDIA_FETCH_FAILED_METRIC, 'Count', 1);
    metrics.publishStoredMetrics();
  }
};

/**
 * Copies one pending file. Throws when it may work later (a Graph or network failure, S3), so the queue
 * retries; on the last attempt, or when Meta says the media is gone, the file is marked failed.
 */
export async function fetchInboundMedia(ref: MessageRef, lastAttempt: boolean, now: Date): Promise<void> {
  const pending = await pendingMedia(ref);
  if (!pending) return;
  const { message, sourceId } = pending;
  const media = message.media as MessageMedia;
  const failed = (code: string, reason: string) =>
    settle(message, { ...media, status: 'failed', error: { code, message: reason } }, now);

  const conversation = await getConversation(ref.tenant_id, ref.conversation_id);
  const phoneNumberId = conversation?.channel_account_id;
  const route = phoneNumberId ? await routeWhatsAppNumber(phoneNumberId) : undefined;
  if (!phoneNumberId || !route || route.tenantId !== ref.tenant_id)
    return failed('channel_not_connected', 'The WhatsApp number this file came through is no longer connected.');
  const app = await whatsAppPlatformApp();
  const credentials = {
    accessToken: route.secrets.access_token,
    appSecret: route.secrets.app_secret ? undefined : app?.secret,
  };
  try {
    const file = await downloadWhatsAppMedia(sourceId, phoneNumberId, credentials, MAX_INBOUND_BYTES);
    await putMediaObject(ref.tenant_id, media.id, file.bytes, file.mimeType);
    await settle(message, { ...media, status: 'stored', mime_type: file.mimeType, size: file.bytes.byteLength }, now);
  } catch (error) {
    if (error instanceof MediaTooLarge) return failed('media_too_large', error.message);
    if (!(error instanceof GraphError)) throw error;
    logger.warn('whatsapp media fetch failed', { status: error.status, code: error.code, message_id: ref.message_id });
    if (error.retryable && !lastAttempt) throw error;
    await failed(
      'media_unavailable',
      error.retryable
        ? `WhatsApp did not hand over the file after several tries: ${error.message}`
        : `WhatsApp no longer has this file (media expire 30 days after they are sent): ${error.message}`,
    );
  }
}
