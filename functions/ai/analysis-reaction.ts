// Public: the stream reactions run it on inbound messages.
import { clock } from '../platform/clock';
import { logger } from '../platform/workers';
import { analyzeInbound } from './service';

/**
 * The analysis of an inbound customer message, off the table's stream (the stream-reactions worker hands
 * it the records catalog/workers.ts routes here), never on the request path: stores sentiment and intent on
 * the message and hands off when the rules say so. Records come from parallel shards in any order: a
 * message analysed after its successor judges the successor again (see analyzeInbound).
 */
export async function analyseInboundMessage(item: Record<string, unknown>): Promise<void> {
  if (item.direction !== 'inbound' || typeof item.text !== 'string' || typeof item.id !== 'string') return;
  const { analysis, handoff } = await analyzeInbound(
    { tenant_id: String(item.tenant_id), conversation_id: String(item.conversation_id), id: item.id, text: item.text },
    clock.now(),
  );
  // Labels only: the message text is personal data and stays out of the logs.
  logger.info('message analysed', {
    tenant_id: item.tenant_id,
    message_id: item.id,
    intent: analysis?.intent.name,
    sentiment: analysis?.sentiment.label,
    provider: analysis?.provider,
    handoff: handoff?.reason,
  });
}
