import { metrics } from '../platform/metrics';
import { scheduledWorker } from '../platform/workers';
import { sweepOverdueDeliveries } from '../webhooks/sweep';
import { drainDeadLetters, sweepOverdueSends } from '../channels/sweep';
import { sweepDuePayments } from '../payments/sweep';

/**
 * The sweeper, on a schedule (every minute in AWS, every 30 s locally): takes over the work a crash or a
 * lost message left behind, so that every webhook delivery and every outbound message reaches a final
 * state in about a minute: overdue webhook deliveries (webhooks/sweep.ts), queued outbound messages that
 * lost their way, and the ChannelOutbound dead letters (channels/sweep.ts); and payments that fall due:
 * unpaid links past their time and refunds left unsent (payments/sweep.ts). Each part runs even if the
 * other fails; a failure then fails the run (the worker's error alarm). The ages of the oldest overdue
 * delivery and message go out as metrics, which alarm in AWS. Runs never overlap (a lease).
 */
const IDLE = {
  webhooks: { requeued: 0, dead_lettered: 0, oldest_overdue_seconds: 0 },
  outbound: {} as Record<string, unknown>,
  payments: { expired: 0, paid: 0, refunded: 0, failed: 0 },
};
export const handler = scheduledWorker('sweeper', IDLE, async (now) => {
  const [deliveries, sends, deadLetters, payments] = await Promise.allSettled([
    sweepOverdueDeliveries(),
    sweepOverdueSends(),
    drainDeadLetters(),
    sweepDuePayments(now),
  ]);
  metrics.publishStoredMetrics();
  const failed = [deliveries, sends, deadLetters, payments].find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const value = <T>(r: PromiseSettledResult<T>) => (r as PromiseFulfilledResult<T>).value;
  return {
    webhooks: value(deliveries),
    outbound: { ...value(sends), dead_letters: value(deadLetters) },
    payments: value(payments),
  };
});
