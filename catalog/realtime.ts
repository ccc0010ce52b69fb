/**
 * The realtime WebSocket API: its routes (API Gateway's route keys, each with its handler module under
 * functions/) and its limits. The CDK stack and the local runtime's WebSocket server are both built from
 * these. Pure data, like catalog/routes.ts.
 */
export interface WebSocketRouteDef {
  /** API Gateway's route key. */
  routeKey: '$connect' | '$disconnect' | '$default';
  handler: string;
  description: string;
  /**
   * This route's own throttle in the deployed stage, below the stage's default (requests per second and
   * burst, across all clients). AWS WAF cannot be attached to a WebSocket API, so these are its edge.
   */
  throttle?: { rateLimit: number; burstLimit: number };
}

export const REALTIME_ROUTES: readonly WebSocketRouteDef[] = [
  {
    routeKey: '$connect',
    handler: 'realtime/connect',
    description: 'Redeems a realtime ticket and registers the connection',
    // A connect costs a ticket read and two writes; a dashboard tab connects once, then after drops.
    throttle: { rateLimit: 20, burstLimit: 50 },
  },
  { routeKey: '$disconnect', handler: 'realtime/disconnect', description: 'Forgets a closed realtime connection' },
  {
    routeKey: '$default',
    handler: 'realtime/message',
    description: 'Answers a realtime client message (subscribe, ping)',
    // Clients ping every few minutes and subscribe rarely: 200 connections pinging is under 2 a second.
    throttle: { rateLimit: 50, burstLimit: 100 },
  },
];

export const REALTIME_LIMITS = {
  /** How long a ticket can be redeemed after it was issued. */
  ticketSeconds: 60,
  /** Open connections of one tenant at once (a connection beyond it is refused with 429). */
  connectionsPerTenant: 200,
  /** Open connections of one user or API key at once (a few browser tabs and devices). */
  connectionsPerPrincipal: 10,
  /**
   * How long a connection item is kept without a `$disconnect`: API Gateway closes every socket after
   * 2 hours, so an item older than that names a socket that is gone (its `$disconnect` was lost).
   */
  connectionSeconds: 2 * 3600 + 300,
  /** Event types and patterns one subscription may list. */
  maxTypes: 20,
  /** The largest client message accepted (API Gateway takes up to 128 KB; ours are tiny). */
  maxClientMessageBytes: 4096,
  /**
   * Bytes the local server queues for one socket before it drops it as a slow consumer (API Gateway keeps
   * its own bounded buffer in AWS). The client reconnects and resumes through `GET /events`.
   */
  sendBufferBytes: 1024 * 1024,
  /** API Gateway's idle timeout: a client pings more often than this to keep its socket. */
  idleSeconds: 600,
  /**
   * How long after `$connect` registered it a connection may not be open yet (API Gateway opens the socket
   * only once `$connect` has returned): a send that finds it gone then is not a sign that it closed.
   */
  openingSeconds: 10,
} as const;

/** The stage of the deployed WebSocket API (part of its URL and of the management endpoint). */
export const REALTIME_STAGE = 'v1';
