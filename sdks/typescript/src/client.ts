import { SessionCredentials, StaticCredentials, type SessionOptions } from './core/auth.js';
import { MessagingError, type RateLimitInfo } from './core/errors.js';
import { Transport, type AuthKind, type ConditionalRequestOptions, type Query, type TransportOptions } from './core/http.js';
import { Auth } from './resources/auth.js';
import { Customers } from './resources/customers.js';
import { Realtime } from './resources/realtime.js';
import {
  Ai,
  ApiKeys,
  Bookings,
  Channels,
  Conversations,
  Events,
  Meta,
  Payments,
  SavedReplies,
  Schedules,
  Settings,
  ReminderPolicy,
  Templates,
  Media,
  Tenants,
  Users,
  WebhookDeliveries,
  Webhooks,
} from './generated/resources.js';
import type { LoginParams, Tokens } from './types.js';

/** API-key mode: for servers. */
export interface ClientOptions extends TransportOptions {
  /** An API key (`sk_…`). */
  apiKey: string;
  /** The tenant's id (`X-Tenant-ID`). */
  tenantId: string;
}

/** Session mode, from saved tokens. */
export interface SessionClientOptions extends TransportOptions, SessionOptions {}

/** Session mode: a user logs in with email and password (servers and browsers). */
export interface LoginOptions extends SessionClientOptions {
  email: LoginParams['email'];
  password: LoginParams['password'];
  /** Needed only when the email belongs to users of several tenants. */
  tenantId?: string;
}

/** Options of the low-level `request` method. */
export interface RawRequestOptions extends ConditionalRequestOptions {
  query?: Query;
  body?: unknown;
}

/** How a client was made: an API key, or a session (internal). */
type Mode = { kind: 'api-key'; apiKey: string; tenantId: string } | { kind: 'session'; tokens: Tokens; receivedAt?: number; session: SessionOptions };

/**
 * The Messaging Platform API client. With an API key: `new MessagingClient({ apiKey, tenantId, baseUrl })`.
 * With a user's login: `await MessagingClient.login({ email, password, baseUrl })`.
 */
export class MessagingClient {
  readonly conversations: Conversations;
  readonly customers: Customers;
  readonly savedReplies: SavedReplies;
  /** WhatsApp message templates and their review status. */
  readonly templates: Templates;
  /** Files to send: presigned uploads (then send them by `media_id`). */
  readonly media: Media;
  /** When and how bookings are reminded over WhatsApp. */
  readonly reminderPolicy: ReminderPolicy;
  readonly bookings: Bookings;
  readonly payments: Payments;
  readonly schedules: Schedules;
  readonly ai: Ai;
  readonly webhooks: Webhooks;
  readonly webhookDeliveries: WebhookDeliveries;
  readonly apiKeys: ApiKeys;
  readonly users: Users;
  readonly events: Events;
  readonly channels: Channels;
  /** Realtime events over WebSockets: `client.realtime.subscribe({ onEvent })`. */
  readonly realtime: Realtime;
  /** The caller's own tenant: name, time zone, default language. */
  readonly settings: Settings;
  readonly auth: Auth;
  /** About the API itself: its OpenAPI document. */
  readonly meta: Meta;
  private readonly transport: Transport;
  private readonly session: SessionCredentials | undefined;

  constructor(options: ClientOptions);
  /** @internal */
  constructor(options: TransportOptions, mode: Mode);
  constructor(options: ClientOptions | TransportOptions, mode?: Mode) {
    const resolved: Mode = mode ?? apiKeyMode(options as ClientOptions);
    this.transport = new Transport(options);
    if (resolved.kind === 'api-key') {
      this.transport.setCredentials('tenant', new StaticCredentials(resolved.apiKey, resolved.tenantId));
      this.session = undefined;
    } else {
      this.session = new SessionCredentials(this.transport, resolved.tokens, resolved.session, resolved.receivedAt);
      this.transport.setCredentials('tenant', this.session);
    }
    this.conversations = new Conversations(this.transport);
    this.customers = new Customers(this.transport);
    this.savedReplies = new SavedReplies(this.transport);
    this.templates = new Templates(this.transport);
    this.media = new Media(this.transport);
    this.reminderPolicy = new ReminderPolicy(this.transport);
    this.bookings = new Bookings(this.transport);
    this.payments = new Payments(this.transport);
    this.schedules = new Schedules(this.transport);
    this.ai = new Ai(this.transport);
    this.webhooks = new Webhooks(this.transport);
    this.webhookDeliveries = new WebhookDeliveries(this.transport);
    this.apiKeys = new ApiKeys(this.transport);
    this.users = new Users(this.transport);
    this.events = new Events(this.transport);
    this.channels = new Channels(this.transport);
    this.realtime = new Realtime(this.transport);
    this.settings = new Settings(this.transport);
    this.auth = new Auth(this.transport, this.session);
    this.meta = new Meta(this.transport);
  }

  /**
   * Logs a user in and returns a client on that session. The access token is refreshed before it
   * expires and once after a 401; `onSessionChange` hears every new pair (to persist it) and null after
   * logout.
   */
  static async login(options: LoginOptions): Promise<MessagingClient> {
    const { email, password, tenantId, ...rest } = options;
    const transport = new Transport(rest);
    const sentAt = Date.now();
    const response = await transport.request<Tokens>({
      method: 'POST',
      path: '/auth/login',
      body: { email, password },
      auth: 'none',
      options: tenantId ? { headers: { 'X-Tenant-ID': tenantId } } : undefined,
    });
    const client = new MessagingClient(rest, { kind: 'session', tokens: response.data, receivedAt: sentAt, session: sessionOptions(rest) });
    await options.onSessionChange?.(response.data);
    return client;
  }

  /** A client on a session saved earlier (the `tokens` of a logged-in client). */
  static fromSession(tokens: Tokens, options: SessionClientOptions): MessagingClient {
    if (!tokens?.access_token || !tokens.refresh_token || !tokens.tenant_id) throw new MessagingError('fromSession needs the tokens of a login (access_token, refresh_token, tenant_id).');
    return new MessagingClient(options, { kind: 'session', tokens, session: sessionOptions(options) });
  }

  /** The session's current tokens (session mode; null after logout, undefined with an API key). */
  get tokens(): Tokens | null | undefined {
    return this.session?.tokens;
  }

  /** The hourly limit as of the last response (`X-RateLimit-*`), if one has been seen. */
  get rateLimit(): RateLimitInfo | undefined {
    return this.transport.rateLimit;
  }

  /** Same as `auth.logout()`. */
  logout(): Promise<void> {
    return this.auth.logout();
  }

  /**
   * Any endpoint, with this client's credentials, retries and errors: `client.request('GET', '/events',
   * { query: { limit: 5 } })`. The path is relative to `/api/v1`.
   */
  async request<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options: RawRequestOptions = {}): Promise<T> {
    const { query, body, ...rest } = options;
    const response = await this.transport.request<T>({ method, path, query, body, auth: 'tenant', options: rest });
    return response.data;
  }
}

/** The operator API (`/platform/tenants`), with the platform token. */
export interface PlatformClientOptions extends TransportOptions {
  /** The platform (operator) token. */
  token: string;
}

export class PlatformClient {
  readonly tenants: Tenants;
  private readonly transport: Transport;

  constructor(options: PlatformClientOptions) {
    if (typeof options?.token !== 'string' || options.token === '') throw new MessagingError('PlatformClient needs the platform token.');
    const { token, ...rest } = options;
    this.transport = new Transport(rest);
    this.transport.setCredentials('platform', new StaticCredentials(token));
    this.tenants = new Tenants(this.transport);
  }

  /** Any platform endpoint; the path is relative to `/api/v1`. */
  async request<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options: RawRequestOptions = {}): Promise<T> {
    const { query, body, ...rest } = options;
    const auth: AuthKind = 'platform';
    const response = await this.transport.request<T>({ method, path, query, body, auth, options: rest });
    return response.data;
  }
}

function apiKeyMode(options: ClientOptions): Mode {
  if (typeof options?.apiKey !== 'string' || options.apiKey === '') throw new MessagingError('apiKey is required (or use MessagingClient.login for a user session).');
  if (typeof options.tenantId !== 'string' || options.tenantId === '') throw new MessagingError('tenantId is required with an API key.');
  return { kind: 'api-key', apiKey: options.apiKey, tenantId: options.tenantId };
}

function sessionOptions(options: SessionOptions): SessionOptions {
  return { refreshLeewaySeconds: options.refreshLeewaySeconds, onSessionChange: options.onSessionChange };
}
