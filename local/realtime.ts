import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { REALTIME_LIMITS, REALTIME_ROUTES, type WebSocketRouteDef } from '../catalog/realtime';
import { invokeLocally } from './invocations';

/**
 * The local stand-in for the realtime WebSocket API (docs/realtime.md), served with the `ws` package on its
 * own port. It plays API Gateway's part: each socket gets a connection id, and `$connect`, `$disconnect`
 * and `$default` run the same handler modules as in AWS (catalog/realtime.ts), with the same event shape;
 * a refused `$connect` refuses the handshake with its status. Beside the sockets it serves API Gateway's
 * management API (`POST`/`DELETE`/`GET /@connections/{id}`), which the dispatcher and the handlers call
 * through `@aws-sdk/client-apigatewaymanagementapi` exactly as in AWS. Like API Gateway, it closes a
 * socket idle for REALTIME_LIMITS.idleSeconds and any socket after two hours (both can be shortened for
 * tests), and it drops a slow consumer instead of queueing without bound.
 */
export interface RealtimeServer {
  /** `ws://127.0.0.1:<port>`: what tickets point at. */
  url: string;
  /** `http://127.0.0.1:<port>`: the management endpoint. */
  managementUrl: string;
  stop(): Promise<void>;
}

type WebSocketHandler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body?: string }>;

export interface RealtimeServerOptions {
  functionsDir: string;
  /** 0: a free port. */
  port: number;
  host?: string;
  /** Seconds without a message either way before a socket is closed (API Gateway: 600). */
  idleSeconds?: number;
  /** Seconds after which any socket is closed (API Gateway: 7,200). */
  maxSeconds?: number;
}

const MAX_SECONDS = 2 * 3600;
/** API Gateway's largest WebSocket frame for a client message (128 KB). */
const MAX_PAYLOAD = 128 * 1024;
/** The close code API Gateway uses when it ends a socket itself (going away). */
const GOING_AWAY = 1001;
/** A socket dropped for not reading fast enough: try again later. */
const TRY_AGAIN_LATER = 1013;

/**
 * API Gateway's connection ids are random bytes in base64 (`L0SM9cOFvHcCIhw=`), so they may hold `/` and `+`:
 * a caller of the management API URL-encodes them, as the AWS SDK does.
 */
const newConnectionId = () => randomBytes(10).toString('base64');

export async function startRealtimeServer(options: RealtimeServerOptions): Promise<RealtimeServer> {
  const handlers = new Map<WebSocketRouteDef['routeKey'], WebSocketHandler>();
  for (const route of REALTIME_ROUTES) {
    const mod = (await import(pathToFileURL(join(options.functionsDir, `${route.handler}.ts`)).href)) as {
      handler: WebSocketHandler;
    };
    handlers.set(route.routeKey, mod.handler);
  }
  const run = (routeKey: WebSocketRouteDef['routeKey'], connectionId: string, extra: Record<string, unknown>) => {
    const handler = handlers.get(routeKey);
    if (!handler) throw new Error(`no handler for ${routeKey}`);
    const requestId = randomBytes(8).toString('hex');
    const event = {
      requestContext: {
        connectionId,
        routeKey,
        eventType: routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE',
        requestId,
        connectedAt: Date.now(),
      },
      isBase64Encoded: false,
      ...extra,
    };
    return invokeLocally(`realtime${routeKey}`, handler, event, requestId);
  };

  const sockets = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const idleMs = (options.idleSeconds ?? REALTIME_LIMITS.idleSeconds) * 1000;
  const maxMs = (options.maxSeconds ?? MAX_SECONDS) * 1000;

  function track(connectionId: string, socket: WebSocket) {
    sockets.set(connectionId, socket);
    let idle: NodeJS.Timeout;
    const stillActive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.close(GOING_AWAY, 'Going away'), idleMs);
    };
    stillActive();
    const lifetime = setTimeout(() => socket.close(GOING_AWAY, 'Going away'), maxMs);
    (socket as WebSocket & { stillActive?: () => void }).stillActive = stillActive;
    socket.on('message', (data: RawData, isBinary: boolean) => {
      stillActive();
      if (isBinary) return;
      const body = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
      run('$default', connectionId, { body }).catch((error: unknown) =>
        console.error('[realtime] $default threw', error),
      );
    });
    socket.on('close', () => {
      clearTimeout(idle);
      clearTimeout(lifetime);
      sockets.delete(connectionId);
      run('$disconnect', connectionId, {}).catch((error: unknown) =>
        console.error('[realtime] $disconnect threw', error),
      );
    });
    socket.on('error', () => socket.terminate());
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const connectionId = newConnectionId();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    let result: { statusCode: number; body?: string };
    try {
      result = await run('$connect', connectionId, { queryStringParameters: query, headers: req.headers });
    } catch (error) {
      console.error('[realtime] $connect threw', error);
      result = { statusCode: 500, body: '{"message":"Internal server error"}' };
    }
    if (result.statusCode !== 200) {
      const body = result.body ?? '';
      socket.end(
        `HTTP/1.1 ${result.statusCode} ${result.statusCode === 429 ? 'Too Many Requests' : result.statusCode === 401 ? 'Unauthorized' : 'Refused'}\r\n` +
          `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => track(connectionId, ws));
  }

  /**
   * API Gateway's management API, as the SDK calls it: `/@connections/{id}`, the id URL-encoded. A path
   * with more after the id (an id with a `/` left unencoded) is no connection's: 404, never a 410 that
   * would say a connection that is open has gone.
   */
  function manage(req: IncomingMessage, res: ServerResponse) {
    const match = /^\/@connections\/([^/?]+)\/?(?:\?|$)/.exec(req.url ?? '');
    const gone = () => {
      res.writeHead(410, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'GoneException' });
      res.end(JSON.stringify({ __type: 'GoneException', message: 'The connection is gone.' }));
    };
    if (!match?.[1]) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"message":"Not Found"}');
      return;
    }
    const socket = sockets.get(decodeURIComponent(match[1]));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // API Gateway's largest message to a client is 128 KB.
      if (size <= MAX_PAYLOAD) chunks.push(chunk);
    });
    req.on('end', () => {
      if (!socket || socket.readyState !== WebSocket.OPEN) return gone();
      if (req.method === 'DELETE') {
        socket.close(GOING_AWAY, 'Going away');
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ connectedAt: new Date().toISOString(), identity: { sourceIp: '127.0.0.1' } }));
        return;
      }
      if (size > MAX_PAYLOAD) {
        res.writeHead(413, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'PayloadTooLargeException' });
        res.end(JSON.stringify({ __type: 'PayloadTooLargeException', message: 'Payload too large.' }));
        return;
      }
      // A client that does not read lets its buffer grow: past the bound it is dropped (and reconnects and
      // resumes), so one slow consumer can never grow this process's memory.
      if (socket.bufferedAmount + size > REALTIME_LIMITS.sendBufferBytes) {
        socket.close(TRY_AGAIN_LATER, 'Slow consumer');
        // A socket that does not read may not read its close frame either.
        setTimeout(() => socket.terminate(), 1000).unref();
        return gone();
      }
      (socket as WebSocket & { stillActive?: () => void }).stillActive?.();
      socket.send(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  }

  const server: Server = createServer(manage);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, host, () => ok());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `ws://${host}:${port}`,
    managementUrl: `http://${host}:${port}`,
    stop: async () => {
      for (const socket of sockets.values()) socket.terminate();
      wss.close();
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
    },
  };
}
