import { clock } from '../platform/clock';
import { sqsWorker } from '../platform/workers';
import { enqueueDeliveries, sendToDeadLetters, type DeliveryMessage } from './delivery-queue';
import { postWebhook, timeoutMs } from './send';
import { getDelivery, getEndpoint, settleDelivery, takeAttempt } from './store';
import { activeSecrets, attemptLeaseMs, retryDelays, sign } from './webhook';

/**
 * Endpoints are cached for one second per process: an attempt needs no endpoint read, and a deactivated
 * or deleted endpoint still stops its pending retries within a second. A message made for a newer
 * endpoint version than the cached one (a URL changed just before its event) reads it again.
 */
const ENDPOINT_CACHE_MS = 1000;
const endpoints = new Map<string, { at: number; endpoint: Awaited<ReturnType<typeof getEndpoint>> }>();
async function endpointOf(tenantId: string, id: string, atLeastVersion = 0) {
  const key = `${tenantId}/${id}`;
  const hit = endpoints.get(key);
  if (hit && Date.now() - hit.at < ENDPOINT_CACHE_MS && (!hit.endpoint || hit.endpoint.version >= atLeastVersion))
    return hit.endpoint;
  const endpoint = await getEndpoint(tenantId, id);
  endpoints.set(key, { at: Date.now(), endpoint });
  return endpoint;
}

/**
 * Delivers one (event, endpoint) attempt. Success ends it; a failure is re-queued with DelaySeconds from
 * WEBHOOK_RETRY_DELAYS, and after the last retry the delivery goes to the dead-letter queue, whose
 * consumer records it in the failed view. An inactive or deleted endpoint stops the delivery.
 * Delivery is at least once (receivers dedupe on webhook-id): the message carries the event, and the
 * attempt is recorded by one conditional write that also drops it if the delivery moved on (a replay
 * started a new cycle, or it was cancelled).
 * Before the POST the worker takes the attempt with a lease (takeAttempt): a duplicate or a sweeper's
 * copy of the same attempt finds it held and stops, so one delivery is never POSTed twice at the same
 * time; a worker that dies mid-attempt leaves a lease that ends, and the sweeper takes the attempt over.
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
  const body = JSON.stringify(payload);
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
  const recordAttempt = (
    status: 'succeeded' | 'pending',
    nextAttemptAt: string | null,
    fields: Record<string, unknown> = {},
  ) =>
    settleDelivery(
      delivery,
      {
        status,
        cycle: message.cycle,
        attemptsSoFar: message.failures,
        attempt: recorded,
        fields: { ...fields, next_attempt_at: nextAttemptAt },
        expect: ['pending'],
      },
      now(),
    );
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
