// Public: the outbox dispatcher fans events out to endpoints with it.
import type { EventEnvelope } from '../events/catalog';
import { enqueueDeliveries, firstAttempt, type DeliveryMessage } from './delivery-queue';
import { allEndpoints, createDelivery, getDelivery, subscriptionVersions } from './store';
import { newDelivery, subscribes, type Subscription, type WebhookEndpoint } from './webhook';

/**
 * Each tenant's endpoints, kept with the subscription version they were read at. A batch reads the
 * current versions first (one strongly consistent BatchGet), and only a tenant whose version moved is
 * queried again: so an endpoint created, changed or re-activated before an event was committed is
 * always seen, at the cost of one small read per batch.
 */
const MAX_CACHED_TENANTS = 10_000;
type SubscribedEndpoint = WebhookEndpoint & Subscription;
const cache = new Map<string, { version: number; endpoints: SubscribedEndpoint[] }>();

export type Subscriptions = Map<string, SubscribedEndpoint[]>;

/** The current endpoints of these tenants: call it once per batch, after the batch's events were read. */
export async function currentSubscriptions(tenantIds: Iterable<string>): Promise<Subscriptions> {
  const tenants = [...new Set(tenantIds)];
  const versions = await subscriptionVersions(tenants);
  const out: Subscriptions = new Map();
  await Promise.all(
    tenants.map(async (tenantId) => {
      const version = versions.get(tenantId) ?? 0;
      let entry = cache.get(tenantId);
      if (!entry || entry.version !== version) {
        // Read after the version: the endpoint write precedes its bump, so this is at least as new.
        entry = { version, endpoints: await allEndpoints(tenantId) };
        if (cache.size >= MAX_CACHED_TENANTS) cache.clear();
        cache.set(tenantId, entry);
      }
      out.set(tenantId, entry.endpoints);
    }),
  );
  return out;
}

/**
 * One delivery (record + SQS message) per active endpoint whose subscription matches the event;
 * `committedAt` is when the event's write committed (the stream record's time), when known.
 */
export async function fanOut(
  event: EventEnvelope,
  endpoints: SubscribedEndpoint[],
  now: Date,
  committedAt?: Date,
): Promise<number> {
  const targets = endpoints.filter((e) => subscribes(e, event, committedAt));
  const messages: DeliveryMessage[] = [];
  for (const endpoint of targets) {
    const delivery = newDelivery(event, endpoint.id, now);
    // A retried stream batch meets deliveries it already made: re-send only those never attempted
    // (the earlier run may have died between the put and the send). One already under way is the
    // sweeper's, should its chain have broken.
    if (!(await createDelivery(delivery, event))) {
      const existing = await getDelivery(event.tenant_id, delivery.id);
      if (!existing || existing.status !== 'pending' || existing.cycle !== 1 || existing.cycle_attempts > 0) continue;
    }
    messages.push(firstAttempt(event, delivery.id, endpoint));
  }
  await enqueueDeliveries(messages);
  return messages.length;
}
