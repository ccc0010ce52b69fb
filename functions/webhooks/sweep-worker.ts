import { logger, scheduledWorker } from '../platform/workers';
import { enqueueDeliveries, sendToDeadLetters, type DeliveryMessage } from './delivery-queue';
import { claimOverdue, overdueDeliveries } from './store';
import { retryDelays, sweepAction, sweepGraceSeconds } from './webhook';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 100;

/**
 * The sweeper, on a schedule: every pending delivery whose next attempt is overdue by more than the
 * grace period lost its queue message (a crash between two steps, a refused SendMessage, a local
 * runtime killed along with its in-memory queue). It is claimed for one more grace period and queued
 * again, or handed to the dead-letter queue if its last attempt already failed, so every delivery
 * reaches `succeeded`, `failed` or `cancelled`. Runs never overlap (a lease).
 */
export const handler = scheduledWorker('webhook-sweeper', { requeued: 0, dead_lettered: 0 }, async (now) => {
  const graceMs = sweepGraceSeconds(process.env.WEBHOOK_SWEEP_GRACE_SECONDS) * 1000;
  const delays = retryDelays(process.env.WEBHOOK_RETRY_DELAYS);
  const overdue = await overdueDeliveries(new Date(now.getTime() - graceMs), BATCH_PER_SHARD);
  const attempts: DeliveryMessage[] = [];
  let deadLettered = 0;
  for (const d of overdue) {
    // Claimed first: if this run dies before the send, the next run finds it overdue again.
    if (!(await claimOverdue(d, new Date(now.getTime() + graceMs)))) continue;
    const message: DeliveryMessage = {
      tenant_id: d.tenant_id,
      delivery_id: d.id,
      webhook_id: d.webhook_id,
      cycle: d.cycle,
      failures: d.cycle_attempts,
      payload: d.payload,
    };
    if (sweepAction(d, delays) === 'attempt') {
      attempts.push(message);
    } else {
      const last = d.attempts[d.attempts.length - 1];
      await sendToDeadLetters({
        ...message,
        reason: `gave up after ${d.cycle_attempts} attempts: ${last?.error ?? 'unknown error'}`,
      });
      deadLettered++;
    }
  }
  await enqueueDeliveries(attempts);
  if (attempts.length + deadLettered > 0)
    logger.warn('overdue webhook deliveries swept', { requeued: attempts.length, dead_lettered: deadLettered });
  return { requeued: attempts.length, dead_lettered: deadLettered };
});
