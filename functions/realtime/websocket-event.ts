/**
 * The part of API Gateway's WebSocket proxy event the realtime handlers read (the local runtime builds the
 * same shape, local/realtime.ts). A `$connect` response's status is what the client's handshake gets.
 */
export interface WebSocketEvent {
  requestContext: { connectionId: string; routeKey: string; eventType?: string; requestId?: string };
  queryStringParameters?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface WebSocketResult {
  statusCode: number;
  body?: string;
  headers?: Record<string, string>;
}
