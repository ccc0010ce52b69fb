import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueUrl } from '../platform/config';
import { queueBody, sqsClient } from '../platform/queue';
import type { EventEnvelope } from '../events/catalog';

/** One attempt of one delivery, as it travels through the delivery queue (and its dead-letter queue). */
export interface DeliveryMessage {
  tenant_id: string;
  delivery_id: string;
  webhook_id?: string;
  cycle: number;
  /** Failed attempts so far in this cycle. */
  failures: number;
  /** The event itself, so an attempt needs no read of the delivery (absent: it is read). */
  payload?: EventEnvelope;
  /**
   * The endpoint version the message was made for: a worker whose cached endpoint is older reads it
   * again, so a URL changed just before the event is used for it.
   */
  endpoint_version?: number;
  /** Dead letters only: why the delivery gave up. */
  reason?: string;
}

/** The first attempt of a new delivery, carrying its event so the worker needs no read. */
export const firstAttempt = (
  event: EventEnvelope,
  deliveryId: string,
  endpoint: { id: string; version: number },
): DeliveryMessage => ({
  tenant_id: event.tenant_id,
  delivery_id: deliveryId,
  webhook_id: endpoint.id,
  cycle: 1,
  failures: 0,
  payload: event,
  endpoint_version: endpoint.version,
});

/** SendMessageBatch takes at most 10 entries and 256 KiB of bodies in all (the size queues had by default). */
const BATCH_ENTRIES = 10;
const BATCH_BYTES = 256 * 1024;

/** Bodies in batches SendMessageBatch accepts: at most ten, and at most BATCH_BYTES together. */
export function batchesOf(bodies: string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = Buffer.byteLength(body);
    if (current.length === BATCH_ENTRIES || (current.length > 0 && bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Queues attempts in batches; throws if any was refused, after trying every batch (one refused message
 * or batch must not hold back the others; the sweeper re-queues what was refused).
 */
export async function enqueueDeliveries(messages: DeliveryMessage[], delaySeconds = 0): Promise<void> {
  let refused = 0;
  let failure: unknown;
  for (const batch of batchesOf(messages.map(queueBody))) {
    try {
      const out = await sqsClient().send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl('webhookDelivery'),
          Entries: batch.map((body, j) => ({ Id: String(j), MessageBody: body, DelaySeconds: delaySeconds })),
        }),
      );
      refused += out.Failed?.length ?? 0;
    } catch (error) {
      refused += batch.length;
      failure ??= error;
    }
  }
  if (refused > 0) throw new Error(`could not queue ${refused} of ${messages.length} deliveries`, { cause: failure });
}

/** Hands a delivery that used up its attempts to the dead-letter queue, whose consumer records it as failed. */
export async function sendToDeadLetters(message: DeliveryMessage & { reason: string }): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({ QueueUrl: queueUrl('webhookDeliveryDlq'), MessageBody: queueBody(message) }),
  );
}
