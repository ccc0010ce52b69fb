import { clock } from '../platform/clock';
import { metrics } from '../platform/observability';
import { logger, sqsWorker } from '../platform/workers';
import { QUEUES } from '../../spec/resources';
import { giveUpSend } from '../conversations/service';
import { queuedSendOf, type MessageRef } from '../conversations/store';
import { SEND_GAVE_UP } from '../conversations/conversation';
import { refOfQueuedSend } from './send-request';

/**
 * The ChannelOutbound dead-letter queue's consumer. A message lands there after its last receive, which
 * may never have reached the sender (a throttled receive counts too), so the message may still be queued:
 * - no sender holds or held it: it was not sent, and is recorded failed (`send_gave_up`, with
 *   `conversation.message.failed`), so nothing stays `queued` for ever;
 * - a sender took it: it may have reached the channel, so it is left to status webhooks and the outbound
 *   sweeper, which never resend it blindly.
 */
export const handler = sqsWorker(async (record) => {
  let ref: MessageRef;
  try {
    ref = refOfQueuedSend(JSON.parse(record.body));
  } catch {
    logger.error('unreadable channel dead letter dropped', { message_id: record.messageId });
    return;
  }
  const send = await queuedSendOf(ref);
  if (!send) return;
  if (send.leaseUntil !== null) {
    logger.warn('dead-lettered message left to the outbound sweeper: a sender took it', { message_id: ref.message_id });
    return;
  }
  const tries = QUEUES.channelOutbound.deadLetter.maxReceiveCount;
  const failed = await giveUpSend(
    send,
    {
      code: SEND_GAVE_UP,
      message: `The channel sender did not get to send this message in ${tries} tries of its retry queue; it was not sent.`,
    },
    clock.now(),
  );
  if (failed) {
    metrics.addMetric('channel_message_gave_up', 'Count', 1);
    metrics.publishStoredMetrics();
    logger.warn('outbound message given up', { tenant_id: ref.tenant_id, message_id: ref.message_id });
  }
});
