import { clock } from '../platform/clock';
import { logger, newImageOf, streamWorker } from '../platform/workers';
import { sendTo } from './sockets';
import { connectionIdOfItem } from './store';
import { mayStillBeOpening } from './subscription';

/**
 * API Gateway opens a socket only once `$connect` has returned, so `$connect` cannot greet it. The
 * Realtime table's stream brings each registered connection here, and the greeting tells the client
 * that events committed from now on are pushed to it: the moment to resume from its last event id.
 */
const GREETING_WAITS_MS = [100, 200, 400, 800];

export const handler = streamWorker(async (record) => {
  const item = newImageOf(record);
  const connectionId = item && connectionIdOfItem(item);
  if (!item || !connectionId) return;
  for (const wait of [0, ...GREETING_WAITS_MS]) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    if ((await sendTo(connectionId, { type: 'realtime.ready', connection_id: connectionId })) === 'sent') return;
    if (!mayStillBeOpening({ connectedAt: String(item.connected_at) }, clock.now())) break;
  }
  logger.info('realtime connection closed before its greeting', { connection_id: connectionId });
});
