/**
 * The official TypeScript SDK of the Messaging Platform API.
 *
 *   const client = new MessagingClient({ apiKey, tenantId, baseUrl });
 *   for await (const conversation of client.conversations.list({ status: 'open' })) …
 */
export { MessagingClient, PlatformClient } from './client.js';
export type { ClientOptions, LoginOptions, PlatformClientOptions, RawRequestOptions, SessionClientOptions } from './client.js';
export type { SessionOptions } from './core/auth.js';
export type { ConditionalRequestOptions, FetchLike, RequestOptions, TransportOptions } from './core/http.js';
export { Page, PagedList } from './core/pagination.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  MessagingError,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  WebhookVerificationError,
} from './core/errors.js';
export type { FieldError, Problem, RateLimitInfo } from './core/errors.js';
export { signWebhook, verifyWebhook } from './webhooks.js';
export { REALTIME_RECONNECT_DEFAULTS, RealtimeSubscription, reconnectDelayMs } from './realtime.js';
export type { EventFilter, RealtimeBackend, RealtimeControl, RealtimeStatus, RealtimeSubscribeOptions, WebSocketConstructor, WebSocketLike } from './realtime.js';
export { listen, listenSecret, matchesEventPatterns } from './listen.js';
export type { ListenOptions, ListenReady } from './listen.js';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
export { SDK_VERSION } from './version.js';
