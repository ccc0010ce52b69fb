import { clock } from '../platform/clock';
import { logger, sqsWorker } from '../platform/workers';
import { processInboundChunk } from './whatsapp-inbound';
import type { InboundChunk } from './whatsapp';

/**
 * Queued WhatsApp webhook payloads (one business number's part each): customer messages, statuses and
 * reactions, routed to their tenant. A record that throws is retried by the queue, then kept in its DLQ;
 * items it cannot use are skipped and counted, never retried.
 */
export const handler = sqsWorker(async (record) => {
  const chunk = JSON.parse(record.body) as InboundChunk;
  const counts = await processInboundChunk(chunk, clock.now());
  if (counts.skipped || counts.held) logger.info('whatsapp payload processed', { ...counts });
});
