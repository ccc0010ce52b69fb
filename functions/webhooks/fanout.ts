import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { queueUrl } from '../platform/config';
import { sqsClient } from '../platform/queue';
import type { EventEnvelope } from '../events/catalog';
import { allEndpoints, createDelivery, getDelivery } from './store';
import { newDelivery, subscribes, type WebhookEndpoint } from './webhook';

/** Subscriptions per tenant, cached for at most 10 s (a per-tenant Query, never a Scan). */
const CACHE_MS = 10_000;
const cache = new Map<string, { at: number; endpoints: WebhookEndpoint[] }>();

async function endpointsOf(tenantId: string): Promise<WebhookEndpoint[]> {
  const hit = cache.get(tenantId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.endpoints;
  const endpoints = await allEndpoints(tenantId);
  cache.set(tenantId, { at: Date.now(), endpoints });
  return endpoints;
}

export interface DeliveryMessage {
  tenant_id: string;
  delivery_id: string;
  webhook_id?: string;
  cycle: number;
  /** Failed attempts so far in this cycle. */
  failures: number;
  /** The event itself, so an attempt needs no read of the delivery (absent: it is read). */
  payload?: EventEnvelope;
}

export const enqueueDeliveries = async (messages: DeliveryMessage[], delaySeconds = 0) => {
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const out = await sqsClient().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl('webhookDelivery'),
        Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delaySeconds })),
      }),
    );
    if (out.Failed?.length) throw new Error(`could not queue ${out.Failed.length} deliveries`);
  }
};

/** One delivery (record + SQS message) per active endpoint whose subscription matches the event. */
export async function fanOut(event: EventEnvelope, now: Date): Promise<number> {
  const targets = (await endpointsOf(event.tenant_id)).filter((e) => subscribes(e, event.type));
  const messages: DeliveryMessage[] = [];
  for (const endpoint of targets) {
    const delivery = newDelivery(event, endpoint.id, now);
    // A retried stream batch meets deliveries it already made: re-send only those never attempted
    // (the earlier run may have died between the put and the send), not ones already under way.
    if (!(await createDelivery(delivery, event))) {
      const existing = await getDelivery(event.tenant_id, delivery.id);
      if (!existing || existing.status !== 'pending' || existing.cycle !== 1 || existing.cycle_attempts > 0) continue;
    }
    messages.push({ tenant_id: event.tenant_id, delivery_id: delivery.id, webhook_id: endpoint.id, cycle: 1, failures: 0, payload: event });
  }
  await enqueueDeliveries(messages);
  return messages.length;
}
