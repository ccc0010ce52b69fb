import { clock } from '../platform/clock';
import { logger } from '../platform/observability';
import { connect } from './service';
import type { WebSocketEvent, WebSocketResult } from './websocket-event';

/** `$connect`: redeems the ticket in the URL and registers the connection, or refuses the handshake. */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  logger.resetKeys();
  const { connectionId } = event.requestContext;
  const result = await connect(event.queryStringParameters ?? {}, connectionId, clock.now());
  if (result.accepted) {
    logger.info('realtime connected', { connection_id: connectionId });
    return { statusCode: 200 };
  }
  logger.info('realtime connection refused', { connection_id: connectionId, code: result.code });
  return {
    statusCode: result.status,
    headers: { 'Content-Type': 'application/problem+json' },
    body: JSON.stringify({ status: result.status, code: result.code, detail: result.detail }),
  };
};
