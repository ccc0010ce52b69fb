// Public: the sweeper runs it.
import { clock } from '../platform/clock';
import { metrics } from '../platform/metrics';
import { logger } from '../platform/workers';
import { OVERDUE_DELIVERY_METRIC } from '../../catalog/metrics';
import { enqueueDeliveries, sendToDeadLetters, type DeliveryMessage } from './delivery-queue';
import { claimOverdue, overdueDeliveries } from './store';
import { retryDelays, sweepAction, sweepGraceSeconds } from './webhook';

/** Per due-index shard and run; what is left is taken by the next run. */
const BATCH_PER_SHARD = 100;

/**
 * The webhook part of the sweeper (functions/sweeper), on a schedule: a pending delivery is overdue when its attempt waited on the queue more
 * than the grace period past its due time (its message was lost: a crash between two steps, a refused
 * SendMessage, a local runtime killed along with its in-memory queue), or when the lease of the worker
 * making it ended without an outcome (that worker died). Each is claimed and queued again, or handed to
 * the dead-letter queue if its last attempt already failed, so every delivery reaches `succeeded`,
 * `failed` or `cancelled`. A duplicate of a message that was only slow loses at the attempt lease, so no
 * delivery is POSTed twice at the same time while a lease lasts. Each run records the age of the oldest overdue one.
 */
export async function sweepOverdueDeliveries(): Promise<{
  requeued: number;
  dead_lettered: number;
  oldest_overdue_seconds: number;
}> {
  const now = clock.now();
  const graceMs = sweepGraceSeconds(process.env.WEBHOOK_SWEEP_GRACE_SECONDS) * 1000;
  const delays = retryDelays(process.env.WEBHOOK_RETRY_DELAYS);
  const overdue = await overdueDeliveries(new Date(now.getTime() - graceMs), now, BATCH_PER_SHARD);
  const oldest = Math.max(0, ...overdue.map((d) => Math.round((now.getTime() - Date.parse(d.overdue_since)) / 1000)));
  metrics.addMetric(OVERDUE_DELIVERY_METRIC, 'Seconds', oldest);
  const attempts: DeliveryMessage[] = [];
  let deadLettered = 0;
  for (const d of overdue) {
    // Claimed first: if this run dies before the send, the next run finds it overdue again.
    if (!(await claimOverdue(d, now))) continue;
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
    logger.warn('overdue webhook deliveries swept', {
      requeued: attempts.length,
      dead_lettered: deadLettered,
      oldest_overdue_seconds: oldest,
    });
  return { requeued: attempts.length, dead_lettered: deadLettered, oldest_overdue_seconds: oldest };
}
