import { logger, scheduledWorker } from '../platform/workers';
import { wakeSnoozed } from './service';
import { dueSnoozes } from './store';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 100;
/** Conversations woken side by side. */
const PARALLEL = 10;

/**
 * On a schedule (every minute): each snoozed conversation whose `snoozed_until` has passed is open again,
 * with its `conversation.updated` event. One that fails to wake stays in the due index for the next run,
 * and the run ends in an error once the others are done. Runs never overlap (a lease).
 */
export const handler = scheduledWorker('snooze-waker', { woken: 0, failed: 0 }, async (now) => {
  const due = await dueSnoozes(now, BATCH_PER_SHARD);
  let woken = 0;
  let failed = 0;
  for (let i = 0; i < due.length; i += PARALLEL) {
    const results = await Promise.allSettled(due.slice(i, i + PARALLEL).map((c) => wakeSnoozed(c.tenantId, c.id, now)));
    for (const result of results) {
      if (result.status === 'rejected') {
        failed++;
        logger.error('a snoozed conversation did not wake', { error: result.reason as Error });
      } else if (result.value) woken++;
    }
  }
  if (woken + failed > 0) logger.info('snoozed conversations woken', { woken, failed });
  // The run fails (and its errors alarm fires) when some could not be woken; the next run tries them again.
  if (failed > 0) throw new Error(`${failed} snoozed conversations could not be woken`);
  return { woken, failed };
});
