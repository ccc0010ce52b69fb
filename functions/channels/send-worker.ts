import { clock } from '../platform/clock';
import { logger, sqsWorker } from '../platform/workers';
import { QUEUES } from '../../spec/resources';
import { markFailed, markSent, recordSandboxSend } from '../conversations/service';
import {
  claimForSending,
  getConversation,
  getMessage,
  releaseSendClaim,
  type MessageRef,
} from '../conversations/store';
import { sandboxSend } from './sandbox';
import { routeWhatsAppNumber } from './store';
import { GraphError, sendWhatsAppText } from './whatsapp';

const IN_PROCESS_ATTEMPTS = 3;
/**
 * Timing, from inside out: 3 Graph calls of at most 5 s plus back-off (< 17 s) < this lease (20 s) <
 * the function timeout (25 s, WORKER_TIMEOUT_SECONDS) < the queue's visibility timeout (150 s, six times
 * that: spec/resources.ts). So a redelivered message never finds a live lease unless another worker is
 * really still sending it.
 */
export const SEND_LEASE_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries 5xx, 429 and network errors a few times in process (honouring Retry-After), then gives up to SQS. */
async function withGraphRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof GraphError) || !error.retryable || attempt >= IN_PROCESS_ATTEMPTS) throw error;
      await sleep(Math.min(error.retryAfterMs ?? 200 * 2 ** attempt, 5_000));
    }
  }
}

/** The provider has the message: record it, retrying the write alone (never the send). */
async function recordSent(ref: MessageRef, channel: 'sandbox' | 'whatsapp', providerId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await markSent(ref, channel, providerId, clock.now());
    } catch (error) {
      if (attempt >= 4) throw error;
      await sleep(100 * attempt);
    }
  }
}

/**
 * Sends one queued outbound message through its channel. The message is claimed first (a lease), so
 * a duplicate or redelivered SQS message never sends twice. Retryable failures throw (SQS redelivers, then the DLQ);
 * on the last attempt, and on permanent errors, the message is marked failed.
 */
export const handler = sqsWorker(async (record) => {
  const ref = JSON.parse(record.body) as MessageRef;
  const message = await getMessage(ref);
  const now = () => clock.now();
  if (!message || message.status !== 'queued') return;

  // The sandbox "sends" in process, with no side effect: its one conditional write (from queued) is the
  // only guard it needs, so it takes no lease.
  if (message.channel === 'sandbox') {
    const result = sandboxSend(message.text);
    if (!result.ok) return markFailed(ref, { code: result.code, message: result.message }, now());
    await recordSandboxSend(message, result.providerId, result.receipts, now());
    return;
  }

  // Another worker holds the lease: let SQS bring this back later rather than dropping it.
  if (!(await claimForSending(ref, now(), SEND_LEASE_MS))) throw new Error('message is being sent by another worker');

  const conversation = await getConversation(ref.tenant_id, ref.conversation_id);
  const route = conversation?.channel_account_id
    ? await routeWhatsAppNumber(conversation.channel_account_id)
    : undefined;
  if (!conversation || !route || route.tenantId !== ref.tenant_id) {
    return markFailed(
      ref,
      { code: 'channel_not_connected', message: 'No WhatsApp number is connected for this conversation.' },
      now(),
    );
  }
  try {
    const wamid = await withGraphRetries(() =>
      sendWhatsAppText(
        conversation.channel_account_id ?? '',
        route.secrets.access_token,
        conversation.customer.phone,
        message.text,
      ),
    );
    await recordSent(ref, 'whatsapp', wamid);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const lastAttempt =
      Number(record.attributes.ApproximateReceiveCount) >= QUEUES.channelOutbound.deadLetter.maxReceiveCount;
    if (error.retryable && !lastAttempt) {
      logger.warn('whatsapp send will be retried', {
        status: error.status,
        code: error.code,
        message_id: ref.message_id,
      });
      await releaseSendClaim(ref);
      throw error;
    }
    await markFailed(ref, { code: error.code, message: error.message }, now());
  }
});
