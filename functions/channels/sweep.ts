// Public: the sweeper runs it.
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { QUEUES } from '../../catalog/resources';
import { clock } from '../platform/clock';
import { queueUrl } from '../platform/config';
import { metrics } from '../platform/metrics';
import { queueBody, sqsClient } from '../platform/queue';
import { logger } from '../platform/workers';
import { OVERDUE_OUTBOUND_METRIC } from '../../catalog/metrics';
import { giveUpSend } from '../conversations/service';
import { claimOverdueSend, overdueSends, sendStateOf } from '../conversations/send-store';
import type { MessageRef } from '../conversations/message-store';
import { applyHeldStatusesOf } from './held-statuses';
import { refOfQueuedSend } from './send-request';
import { OUTBOUND_TAKEOVER_MS, SEND_GAVE_UP, SEND_OUTCOME_UNKNOWN } from '../conversations/conversation';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 100;
/** A message handed on this often without being sent is given up (it keeps failing before the channel). */
const MAX_SWEEPS = 3;

/** Hands messages to the sender's queue, due at once (its delivery delay is for retries). */
export async function handOn(refs: MessageRef[]): Promise<void> {
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
 * The outbound part of the sweeper (functions/sweeper), on a schedule: a queued outbound message past its takeover time lost its way.
 * - No sender took it (the dispatcher's invocation or a retry was lost: a crash, a dead-lettered
 *   receive): it is claimed and handed to the sender again, and given up as not sent after MAX_SWEEPS.
 * - A sender took it and its lease ended without an outcome, and no status webhook settled it since:
 *   that sender died, perhaps after the channel accepted it. It is never sent again blindly: it is marked
 *   failed with `outcome_unknown` (and `conversation.message.failed`), for a person to check and
 *   resend; a status webhook that arrives later still moves it on.
 * Each run records the age of the oldest message it found, from when it was queued.
 */
export async function sweepOverdueSends(): Promise<{
  handed_on: number;
  unknown: number;
  gave_up: number;
  oldest_queued_seconds: number;
}> {
  const now = clock.now();
  const overdue = await overdueSends(now, BATCH_PER_SHARD);
  const oldest = Math.max(
    0,
    ...overdue.map((s) => Math.round((now.getTime() - Date.parse(s.message.created_at)) / 1000)),
  );
  metrics.addMetric(OVERDUE_OUTBOUND_METRIC, 'Seconds', oldest);
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
}

/**
 * A ChannelOutbound dead letter: its message's last receive, which may never have reached the sender (a
 * throttled receive counts too), so the message may still be queued.
 * - No sender holds or held it: it was not sent, and is recorded failed (`send_gave_up`, with
 *   `conversation.message.failed`), so nothing stays `queued` for ever.
 * - A sender took it: it may have reached the channel, so it is left to status webhooks and the sweep
 *   above, which never resends it blindly.
 * True if it recorded the message failed.
 */
export async function settleDeadLetter(body: string): Promise<boolean> {
  let ref: MessageRef;
  try {
    ref = refOfQueuedSend(JSON.parse(body));
  } catch {
    logger.error('unreadable channel dead letter dropped');
    return false;
  }
  const { message, queued: send } = await sendStateOf(ref);
  if (!send) {
    // Sent, and its sender died before applying the statuses held for it, on the queue's last receive (so
    // no retry came): they are applied here, within their hold.
    await applyHeldStatusesOf(message, clock.now());
    return false;
  }
  if (send.leaseUntil !== null) return false;
  const tries = QUEUES.channelOutbound.deadLetter.maxReceiveCount;
  const failed = await giveUpSend(
    send,
    {
      code: SEND_GAVE_UP,
      message: `The channel sender did not get to send this message in ${tries} tries of its retry queue; it was not sent.`,
    },
    clock.now(),
  );
  if (failed) logger.warn('outbound message given up', { tenant_id: ref.tenant_id, message_id: ref.message_id });
  return failed;
}

/** At most this many dead letters per run; the rest wait for the next. */
const DEAD_LETTERS_PER_RUN = 100;

/**
 * Consumes the ChannelOutbound dead-letter queue (settleDeadLetter). A letter is deleted once settled; one
 * whose settling threw comes back after the receive's visibility timeout, for a later run.
 */
export async function drainDeadLetters(): Promise<{ gave_up: number }> {
  const url = queueUrl('channelOutboundDlq');
  let gaveUp = 0;
  for (let received = 0; received < DEAD_LETTERS_PER_RUN;) {
    const out = await sqsClient().send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60 }),
    );
    const letters = out.Messages ?? [];
    if (letters.length === 0) break;
    received += letters.length;
    for (const letter of letters) {
      if (await settleDeadLetter(letter.Body ?? '')) gaveUp++;
      await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: letter.ReceiptHandle }));
    }
  }
  return { gave_up: gaveUp };
}
