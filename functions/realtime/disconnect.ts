import { disconnect } from './service';
import type { WebSocketEvent, WebSocketResult } from './websocket-event';

/** `$disconnect`: forgets the connection. API Gateway sends it at best effort; the item's TTL covers a lost one. */
export const handler = async (event: WebSocketEvent): Promise<WebSocketResult> => {
  await disconnect(event.requestContext.connectionId);
  return { statusCode: 200 };
};
