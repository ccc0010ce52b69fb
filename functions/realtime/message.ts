import { clock } from '../platform/clock';
import { handleClientMessage } from './service';
import type { WebSocketEvent, WebSocketResult } from './websocket-event';

/** `$default`: a client's message (subscribe, ping), answered on the socket. */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  const body =
    event.isBase64Encoded && event.body
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : (event.body ?? undefined);
  await handleClientMessage(event.requestContext.connectionId, body, clock.now());
  return { statusCode: 200 };
};
