import { clock } from '../platform/clock';
import { metrics } from '../platform/metrics';
import { logger, sqsWorker } from '../platform/workers';
import type { DeliveryMessage } from './delivery-queue';
import { getDelivery, settleDelivery } from './store';

/**
 * The dead-letter queue's consumer: records each dead delivery in the failed view, with the reason.
 * Deliveries arrive here after their last retry, or by redrive when they crashed the worker repeatedly.
 */
export const handler = sqsWorker(async (record) => {
  let message: DeliveryMessage & { reason?: string };
  try {
    message = JSON.parse(record.body) as DeliveryMessage & { reason?: string };
  } catch {
    logger.error('unreadable dead letter dropped', { message_id: record.messageId });
    return;
  }
  const delivery = await getDelivery(message.tenant_id, message.delivery_id);
  if (!delivery) return;
  const reason =
    message.reason ?? `the delivery worker failed ${record.attributes.ApproximateReceiveCount} times on this message`;
  const now = clock.now();
  const recorded = await settleDelivery(
    delivery,
    {
      status: 'failed',
      cycle: message.cycle,
      fields: { failure_reason: reason, failed_at: now.toISOString(), next_attempt_at: null },
      expect: ['pending'],
    },
    now,
  );
  if (recorded) {
    metrics.addMetric('webhook_delivery_failed', 'Count', 1);
    metrics.publishStoredMetrics();
    logger.warn('webhook delivery failed', {
      tenant_id: delivery.tenant_id,
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      reason,
    });
  }
});
