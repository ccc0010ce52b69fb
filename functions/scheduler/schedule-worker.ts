import { logger, scheduledWorker } from '../platform/workers';
import { eachInParallel } from '../platform/db';
import { dueTemplateReviews } from '../templates/store';
import { reviewSandboxTemplate } from '../templates/service';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 50;
const PARALLEL = 10;

/** Runs each item's work; counts what happened, and fails the run (its alarm) after all when some failed. */
async function runAll<T>(label: string, items: T[], work: (item: T) => Promise<boolean>) {
  let done = 0;
  let failed = 0;
  await eachInParallel(items, PARALLEL, async (item) => {
    try {
      if (await work(item)) done++;
    } catch (error) {
      failed++;
      logger.error(`${label}: an item failed`, { error: error as Error });
    }
  });
  return { done, failed };
}

/**
 * What falls due with WhatsApp business messaging, on a schedule (every minute in AWS): the sandbox's
 * template reviews. Each item leaves the due index with its own conditional write, so a repeated or
 * overlapping run does nothing twice; one that fails stays due for the next run.
 */
export const handler = scheduledWorker('business-scheduler', { templates_reviewed: 0, failed: 0 }, async (now) => {
  const reviews = await runAll('sandbox template review', await dueTemplateReviews(now, BATCH_PER_SHARD), (t) =>
    reviewSandboxTemplate(t, now),
  );
  const failed = reviews.failed;
  if (failed > 0) throw new Error(`${failed} scheduled items failed; they stay due for the next run`);
  return { templates_reviewed: reviews.done, failed };
});
