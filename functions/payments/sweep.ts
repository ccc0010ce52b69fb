// Public: expiring unpaid links and sending owed refunds, for the sweeper.
import { logger } from '../platform/observability';
import { sweepPayment } from './service';
import { duePayments } from './store';

/** Per due-index shard and run; the rest is taken by the next run. */
const BATCH_PER_SHARD = 50;
const PARALLEL = 5;

/**
 * The sweeper's payment part: each open link past its `expires_at` is closed at the provider and expired
 * (its booking cancelled, `payment_expired`, its slot free) unless the customer paid first; each refund
 * reserved but left unsent (a crash, a provider that did not answer) is sent again, idempotently.
 */
export async function sweepDuePayments(now: Date) {
  const due = await duePayments(now, BATCH_PER_SHARD);
  const counts = { expired: 0, paid: 0, refunded: 0, failed: 0 };
  for (let i = 0; i < due.length; i += PARALLEL) {
    const results = await Promise.allSettled(
      due.slice(i, i + PARALLEL).map((p) => sweepPayment(p.tenantId, p.id, now)),
    );
    for (const result of results) {
      if (result.status === 'rejected') {
        counts.failed++;
        logger.error('a due payment could not be settled', { error: result.reason as Error });
      } else if (result.value !== 'none') counts[result.value]++;
    }
  }
  if (counts.failed > 0) throw new Error(`${counts.failed} due payments could not be settled`);
  return counts;
}
