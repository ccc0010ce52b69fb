import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { clock } from '../platform/clock';
import { queueUrl } from '../platform/config';
import { sqsClient } from '../platform/queue';
import { sqsWorker } from '../platform/workers';
import { enqueueDeliveries, type DeliveryMessage } from './fanout';
import { postWebhook, timeoutMs } from './send';
import { claimDelivery, getDelivery, getEndpoint, settleDelivery } from './store';
import { activeSecrets, retryDelays, sign } from './webhook';

/** Longer than one attempt (the POST timeout plus bookkeeping), shorter than the queue's visibility timeout. */
const leaseMs = () => timeoutMs() + 15_000;

/**
 * Delivers one (event, endpoint) attempt. Success ends it; a failure is re-queued with DelaySeconds from
 * WEBHOOK_RETRY_DELAYS, and after the last retry the delivery goes to the dead-letter queue, whose
 * consumer records it in the failed view. An inactive or deleted endpoint stops the delivery.
 */
export const handler = sqsWorker(async (record) => {
  const message = JSON.parse(record.body) as DeliveryMessage;
  const now = () => clock.now();
  const delivery = await getDelivery(message.tenant_id, message.delivery_id);
  if (!delivery || delivery.status !== 'pending' || delivery.cycle !== message.cycle) return;
  const endpoint = await getEndpoint(message.tenant_id, delivery.webhook_id);
  if (!endpoint || !endpoint.is_active) {
    await settleDelivery(delivery, { status: 'cancelled', cycle: message.cycle, fields: { failure_reason: endpoint ? 'endpoint_inactive' : 'endpoint_deleted' }, expect: ['pending'] }, now());
    return;
  }
  if (!(await claimDelivery(message.tenant_id, delivery.id, message.cycle, now(), leaseMs()))) {
    throw new Error('delivery is being attempted by another worker');
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now().getTime() / 1000);
  const signature = sign(activeSecrets(endpoint.secrets, now()).map((s) => s.secret), delivery.event_id, timestamp, body);
  const attempt = await postWebhook(endpoint.url, body, {
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
    'X-Service-Signature': signature,
  }, now);
  const { ok, ...recorded } = attempt;
  if (ok) {
    await settleDelivery(delivery, { status: 'succeeded', cycle: message.cycle, attempt: recorded, fields: { succeeded_at: recorded.at, next_attempt_at: null }, expect: ['pending'] }, now());
    return;
  }
  const delays = retryDelays(process.env.WEBHOOK_RETRY_DELAYS);
  const failures = message.failures + 1;
  const delay = delays[failures - 1];
  if (delay !== undefined) {
    const next = new Date(now().getTime() + delay * 1000).toISOString();
    await settleDelivery(delivery, { status: 'pending', cycle: message.cycle, attempt: recorded, fields: { next_attempt_at: next }, expect: ['pending'] }, now());
    await enqueueDeliveries([{ ...message, failures }], delay);
    return;
  }
  await settleDelivery(delivery, { status: 'pending', cycle: message.cycle, attempt: recorded, fields: { next_attempt_at: null }, expect: ['pending'] }, now());
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueUrl('webhookDeliveryDlq'),
      MessageBody: JSON.stringify({ ...message, failures, reason: `gave up after ${failures} attempts: ${recorded.error}` }),
    }),
  );
});
