import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { clock } from '../platform/clock';
import { queueUrl } from '../platform/config';
import { metrics } from '../platform/observability';
import { queueBody, sqsClient } from '../platform/queue';
import { logger } from '../platform/workers';
import { giveUpSend } from '../conversations/service';
import { claimOverdueSend, overdueSends, type MessageRef } from '../conversations/store';
import { OUTBOUND_TAKEOVER_MS, SEND_GAVE_UP, SEND_OUTCOME_UNKNOWN } from '../conversations/conversation';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 100;
/** A message handed on this often without being sent is given up (it keeps failing before the channel). */
const MAX_SWEEPS = 3;

/** The metric the stuck-outbound alarm watches (lib/stateless-stack.ts). */
export const OVERDUE_OUTBOUND_METRIC = 'OldestOverdueQueuedMessageSeconds';

/** Hands messages to the sender's queue, due at once (its delivery delay is for retries). */
async function handOn(refs: MessageRef[]): Promise<void> {
  for (let i = 0; i < refs.length; i += 10) {
    const batch = refs.slice(i, i + 10);
    const out = await sqsClient().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl('channelOutbound'),
        Entries: batch.map((ref, j) => ({ Id: String(j), MessageBody: queueBody(ref), DelaySeconds: 0 })),
      }),
    );
    // What was refused stays overdue: the next run hands it on.
    if (out.Failed?.length) throw new Error(`could not queue ${out.Failed.length} outbound messages`);
  }
}

/**
 * The outbound sweeper, on a schedule: a queued outbound message past its takeover time lost its way.
 * - No sender took it (the dispatcher's invocation or a retry was lost: a crash, a dead-lettered
 *   receive): it is claimed and handed to the sender again, and given up as not sent after MAX_SWEEPS.
 * - A sender took it and its lease ended without an outcome, and no status webhook settled it since:
 *   that sender died, perhaps after the channel accepted it. It is never sent again blindly: it is marked
 *   failed with `send_outcome_unknown` (and `conversation.message.failed`), for a person to check and
 *   resend; a status webhook that arrives later still moves it on.
 * Each run records the age of the oldest message it found, from when it was queued.
 */
export const handler = async (): Promise<{
  handed_on: number;
  unknown: number;
  gave_up: number;
  oldest_queued_seconds: number;
}> => {
  const now = clock.now();
  const overdue = await overdueSends(now, BATCH_PER_SHARD);
  const oldest = Math.max(
    0,
    ...overdue.map((s) => Math.round((now.getTime() - Date.parse(s.message.created_at)) / 1000)),
  );
  metrics.addMetric(OVERDUE_OUTBOUND_METRIC, 'Seconds', oldest);
  metrics.publishStoredMetrics();
  const refs: MessageRef[] = [];
  let unknown = 0;
  let gaveUp = 0;
  for (const send of overdue) {
    if (send.leaseUntil !== null) {
      const marked = await giveUpSend(
        send,
        {
          code: SEND_OUTCOME_UNKNOWN,
          message:
            'The sender stopped after handing this message to the channel and before recording its answer, and no status report named it since: it may or may not have reached the customer. Check with the customer, and send it again if needed.',
        },
        now,
      );
      if (marked) unknown++;
    } else if (send.sweeps >= MAX_SWEEPS) {
      const marked = await giveUpSend(
        send,
        {
          code: SEND_GAVE_UP,
          message: `The message could not be handed to the channel after ${MAX_SWEEPS + 1} tries; it was not sent.`,
        },
        now,
      );
      if (marked) gaveUp++;
    } else if (await claimOverdueSend(send, new Date(now.getTime() + OUTBOUND_TAKEOVER_MS))) {
      refs.push(send.ref);
    }
  }
  await handOn(refs);
  if (refs.length + unknown + gaveUp > 0)
    logger.warn('overdue outbound messages swept', {
      handed_on: refs.length,
      unknown,
      gave_up: gaveUp,
      oldest_queued_seconds: oldest,
    });
  return { handed_on: refs.length, unknown, gave_up: gaveUp, oldest_queued_seconds: oldest };
};
