import { logger, scheduledWorker } from '../platform/workers';
import { eachInParallel } from '../platform/db';
import { dueTemplateReviews } from '../templates/store';
import { reviewSandboxTemplate } from '../templates/service';
import { dueScheduledMessages, type MessageRef } from '../conversations/message-store';
import { releaseScheduledMessage } from '../conversations/service';
import { handOn } from '../channels/sweep';
import { dueReminders } from '../reminders/store';
import { sendReminder } from '../reminders/service';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 50;
const PARALLEL = 10;

/** Runs each item's work; counts what happened; failures are logged and counted, and stay due. */
async function runAll<T, R>(label: string, items: T[], work: (item: T) => Promise<R>) {
  const results: R[] = [];
  let failed = 0;
  await eachInParallel(items, PARALLEL, async (item) => {
    try {
      results.push(await work(item));
    } catch (error) {
      failed++;
      logger.error(`${label}: an item failed`, { error: error as Error });
    }
  });
  return { results, failed };
}

/**
 * What falls due with WhatsApp business messaging, on a schedule (every minute in AWS): scheduled
 * messages (`send_at`), queued then handed to the sender; booking reminders (their template messages go
 * through the outbox like any message); and the sandbox's template reviews. Each item
 * moves on with its own conditional write, so a repeated or overlapping run does nothing twice; a
 * message released but not handed on (a crash in between) is in the outbound due index, where the
 * sweeper hands it on. An item that fails stays due for the next run, and the run ends in an error.
 */
export const handler = scheduledWorker(
  'business-scheduler',
  { messages_released: 0, reminders_sent: 0, templates_reviewed: 0, failed: 0 },
  async (now) => {
    const messages = await runAll('scheduled message', await dueScheduledMessages(now, BATCH_PER_SHARD), (due) =>
      releaseScheduledMessage(due, now),
    );
    const refs = messages.results.filter((r): r is MessageRef => r !== undefined);
    await handOn(refs);
    const reminders = await runAll('booking reminder', await dueReminders(now, BATCH_PER_SHARD), (r) =>
      sendReminder(r, now),
    );
    const reviews = await runAll('sandbox template review', await dueTemplateReviews(now, BATCH_PER_SHARD), (t) =>
      reviewSandboxTemplate(t, now),
    );
    const failed = messages.failed + reminders.failed + reviews.failed;
    if (failed > 0) throw new Error(`${failed} scheduled items failed; they stay due for the next run`);
    return {
      messages_released: refs.length,
      reminders_sent: reminders.results.filter((r) => r === 'sent').length,
      templates_reviewed: reviews.results.filter(Boolean).length,
      failed,
    };
  },
);
