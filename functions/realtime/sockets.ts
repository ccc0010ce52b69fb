import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { requireEnv } from '../platform/config';

/**
 * Sends to open WebSocket connections through API Gateway's management API (`@connections`). The local
 * runtime serves the same API beside its WebSocket server (local/realtime.ts), so this code is the same
 * in both places; `REALTIME_MANAGEMENT_URL` names the endpoint.
 */
let client: ApiGatewayManagementApiClient | undefined;
let clientEndpoint: string | undefined;

function managementApi(): ApiGatewayManagementApiClient {
  const endpoint = requireEnv('REALTIME_MANAGEMENT_URL');
  if (!client || clientEndpoint !== endpoint) {
    client = new ApiGatewayManagementApiClient({ endpoint, maxAttempts: 2 });
    clientEndpoint = endpoint;
  }
  return client;
}

/** `gone`: the socket is closed (410), and its connection item can be forgotten. */
export type SendResult = 'sent' | 'gone';

export async function sendTo(connectionId: string, message: object): Promise<SendResult> {
  try {
    await managementApi().send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(message)) }),
    );
    return 'sent';
  } catch (error) {
    if ((error as Error).name === 'GoneException') return 'gone';
    throw error;
  }
}

/** Closes a socket from the server's side (a connection refused after it opened). */
export async function closeConnection(connectionId: string): Promise<void> {
  try {
    await managementApi().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
  } catch (error) {
    if ((error as Error).name !== 'GoneException') throw error;
  }
}
