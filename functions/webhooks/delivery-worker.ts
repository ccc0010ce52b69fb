import { performance } from 'node:perf_hooks';
import { clock } from '../platform/clock';
import { logger } from '../platform/observability';
import { sqsWorker } from '../platform/workers';
import { enqueueDeliveries, sendToDeadLetters, type DeliveryMessage } from './delivery-queue';
import { postWebhook, timeoutMs } from './send';
import { getDelivery, getEndpoint, settleDelivery, takeAttempt } from './store';
import { activeSecrets, attemptLeaseMs, deliveryBody, retryDelays, sign } from './webhook';

/**
 * Endpoints are cached for one second per process: an attempt needs no endpoint read, and a deactivated
 * or deleted endpoint still stops its pending retries within a second. A message made for a newer
 * endpoint version than the cached one (a URL changed just before its event) reads it again.
 *
 * One read serves every delivery of the endpoint in flight: deliveries that miss at once share its
 * promise, and the first delivery in the cache's last REFRESH_AHEAD_MS starts the next read while the
 * others keep the cached endpoint, so the cache does not expire for all of them together. An entry is as
 * old as its read's start, so no delivery uses an endpoint read more than ENDPOINT_CACHE_MS before.
 * Ages are measured on the monotonic clock: a wall clock that is stepped or skewed would stretch them.
 */
const ENDPOINT_CACHE_MS = 1000;
const REFRESH_AHEAD_MS = 300;
type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;
interface CachedEndpoint {
  at: number;
  read: Promise<Endpoint>;
  /** Set once the read is done. */
  done?: { endpoint: Endpoint };
  refreshing?: boolean;
}
const endpoints = new Map<string, CachedEndpoint>();

/** Starts a read of the endpoint; it replaces the cached entry once done (at once when `replaceNow`). */
function readEndpoint(key: string, tenantId: string, id: string, replaceNow: boolean): CachedEndpoint {
  const entry: CachedEndpoint = { at: performance.now(), read: getEndpoint(tenantId, id) };
  if (replaceNow) endpoints.set(key, entry);
  entry.read.then(
    (endpoint) => {
      entry.done = { endpoint };
      const current = endpoints.get(key);
      if (!current || current.at <= entry.at) endpoints.set(key, entry);
    },
    // A failed read is not cached: the next delivery reads again (and this one fails and is retried).
    () => {
      if (endpoints.get(key) === entry) endpoints.delete(key);
    },
  );
  return entry;
}

async function endpointOf(tenantId: string, id: string, atLeastVersion = 0): Promise<Endpoint> {
  const key = `${tenantId}/${id}`;
  let entry = endpoints.get(key);
  const age = entry ? performance.now() - entry.at : Infinity;
  if (!entry || age >= ENDPOINT_CACHE_MS) entry = readEndpoint(key, tenantId, id, true);
  else if (age >= ENDPOINT_CACHE_MS - REFRESH_AHEAD_MS && entry.done && !entry.refreshing) {
    entry.refreshing = true;
    readEndpoint(key, tenantId, id, false);
  }
  const endpoint = await entry.read;
  if (!endpoint || endpoint.version >= atLeastVersion) return endpoint;
  // Made for a newer version than this read found: read again. A read another delivery started since this
  // one saw the old version is as fresh as a new one would be, and is shared.
  const sawOld = performance.now();
  const current = endpoints.get(key);
  const newer = current && current.at >= sawOld ? current : readEndpoint(key, tenantId, id, true);
  return newer.read;
}

/**
 * Delivers one (event, endpoint) attempt. Success ends it; a failure is re-queued with DelaySeconds from
 * WEBHOOK_RETRY_DELAYS, and after the last retry the delivery goes to the dead-letter queue, whose
 * consumer records it in the failed view. An inactive or deleted endpoint stops the delivery.
 * Delivery is at least once (receivers dedupe on webhook-id): the message carries the event, and the
 * attempt is recorded by one conditional write that also drops it if the delivery moved on (a replay
 * started a new cycle, or it was cancelled).
 * Before the POST the worker takes the attempt with a lease (takeAttempt): a duplicate or a sweeper's
 * copy of the same attempt finds it held and stops, so while the lease lasts no other worker POSTs the
 * delivery; a worker that dies mid-attempt leaves a lease that ends, and the sweeper takes the attempt over.
 * A worker that outlives its lease (stalled, or the clocks differ) and was taken over records nothing: its
 * outcome would erase the lease of the copy now POSTing, and the next attempt could overlap that one. Its
 * POST still happened, so it logs the outcome it could not record (a warning), for the operator to match.
 * Write order: the attempt and the time of the next one are recorded first, then the next message is
 * queued. If the process dies in between (or SQS refuses the send), the delivery stays pending with
 * that time in the past, and the sweeper (sweep-worker.ts) queues it again: no chain is ever stranded.
 */
export const handler = sqsWorker(async (record) => {
  const message = JSON.parse(record.body) as DeliveryMessage;
  const now = () => clock.now();
  let payload = message.payload;
  let webhookId = message.webhook_id;
  if (!payload || !webhookId) {
    const stored = await getDelivery(message.tenant_id, message.delivery_id);
    if (!stored || stored.status !== 'pending' || stored.cycle !== message.cycle) return;
    payload = stored.payload;
    webhookId = stored.webhook_id;
  }
  const delivery = {
    tenant_id: message.tenant_id,
    id: message.delivery_id,
    webhook_id: webhookId,
    event_id: payload.id,
  };
  const endpoint = await endpointOf(message.tenant_id, webhookId, message.endpoint_version);
  if (!endpoint || !endpoint.is_active) {
    await settleDelivery(
      delivery,
      {
        status: 'cancelled',
        cycle: message.cycle,
        fields: { failure_reason: endpoint ? 'endpoint_inactive' : 'endpoint_deleted', next_attempt_at: null },
        expect: ['pending'],
      },
      now(),
    );
    return;
  }
  const leaseUntil = new Date(now().getTime() + attemptLeaseMs(timeoutMs()));
  if (!(await takeAttempt(delivery, { cycle: message.cycle, attemptsSoFar: message.failures }, leaseUntil, now())))
    return;
  const body = deliveryBody(payload);
  const timestamp = Math.floor(now().getTime() / 1000);
  const signature = sign(
    activeSecrets(endpoint.secrets, now()).map((s) => s.secret),
    delivery.event_id,
    timestamp,
    body,
  );
  const attempt = await postWebhook(
    endpoint.url,
    body,
    {
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'X-Service-Signature': signature,
    },
    now,
  );
  const { ok, ...recorded } = attempt;
  // Recorded only if this message is still the one expected (same cycle, same attempt count): a
  // duplicate or stale message loses here and stops, so a delivery never forks into two retry chains.
  const recordAttempt = async (
    status: 'succeeded' | 'pending',
    nextAttemptAt: string | null,
    fields: Record<string, unknown> = {},
  ) => {
    const made = await settleDelivery(
      delivery,
      {
        status,
        cycle: message.cycle,
        attemptsSoFar: message.failures,
        lease: leaseUntil.toISOString(),
        attempt: recorded,
        fields: { ...fields, next_attempt_at: nextAttemptAt },
        expect: ['pending'],
      },
      now(),
    );
    if (!made)
      logger.warn('webhook attempt made but not recorded: the delivery moved on during its POST', {
        tenant_id: delivery.tenant_id,
        delivery_id: delivery.id,
        webhook_id: delivery.webhook_id,
        cycle: message.cycle,
        attempt: message.failures + 1,
        lease_until: leaseUntil.toISOString(),
        at: recorded.at,
        status_code: recorded.status_code,
        error: recorded.error,
      });
    return made;
  };
  if (ok) {
    await recordAttempt('succeeded', null, { succeeded_at: recorded.at });
    return;
  }
  const delays = retryDelays(process.env.WEBHOOK_RETRY_DELAYS);
  const failures = message.failures + 1;
  const delay = delays[failures - 1];
  if (delay !== undefined) {
    if (!(await recordAttempt('pending', new Date(now().getTime() + delay * 1000).toISOString()))) return;
    await enqueueDeliveries([{ ...message, failures }], delay);
    return;
  }
  // Out of retries: due now, so the sweeper hands it to the dead-letter queue should this send be lost.
  if (!(await recordAttempt('pending', now().toISOString()))) return;
  await sendToDeadLetters({ ...message, failures, reason: `gave up after ${failures} attempts: ${recorded.error}` });
});
