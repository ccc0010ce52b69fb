import { conflict } from '../platform/errors';
import { enqueueDeliveries } from './delivery-queue';
import { restartDelivery } from './store';
import type { EventEnvelope } from '../events/catalog';
import type { Delivery } from './webhook';

/** Replays a finished delivery: a new cycle with the full retry schedule, queued now. */
export async function replay(delivery: Delivery & { payload?: EventEnvelope }, now: Date): Promise<number> {
  const cycle = await replayIfFinished(delivery, now);
  if (cycle === undefined) throw conflict('delivery_in_progress', 'This delivery is still pending; wait for it to finish before replaying it.');
  return cycle;
}

/** Replays unless the delivery is still pending; returns the new cycle, or undefined when it was not. */
export async function replayIfFinished(delivery: Delivery & { payload?: EventEnvelope }, now: Date): Promise<number | undefined> {
  const cycle = await restartDelivery(delivery, now);
  if (cycle === undefined) return undefined;
  await enqueueDeliveries([{ tenant_id: delivery.tenant_id, delivery_id: delivery.id, webhook_id: delivery.webhook_id, cycle, failures: 0, payload: delivery.payload }]);
  return cycle;
}
