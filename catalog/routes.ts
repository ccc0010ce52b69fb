/**
 * The one route table. The CDK stateless stack makes one Lambda per entry and the local gateway serves
 * the same entries with the same handler modules. Pure data: handlers import it to learn their own
 * auth rules, so it must stay free of CDK imports.
 */
import { OPENAPI_DOCUMENT, type DataFiles } from './data-files';
import type { QueueKey } from './resources';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** none: login/refresh; tenant: API key or access token plus X-Tenant-ID; platform: operator token. */
export type AuthMode = 'none' | 'tenant' | 'platform';
export type Role = 'admin' | 'agent';

export interface RouteDef {
  /** Stable id, also the handler's name in logs and CDK construct ids. */
  id: string;
  method: HttpMethod;
  /** API Gateway syntax, without the /api/v1 prefix. */
  path: string;
  /** Module under functions/, without extension; it exports `handler`. */
  handler: string;
  auth: AuthMode;
  /** Minimum role for tenant routes; omitted means any authenticated user or key. */
  role?: Role;
  /**
   * Least-privilege access to the main table (the ephemeral table is always read-write). `none`: the
   * route reads no table and no secret at all (an unauthenticated document such as the OpenAPI spec).
   */
  mainTable: 'read' | 'write' | 'none';
  /** Reads or writes encrypted secrets in the table (channel credentials). */
  dataKey?: true;
  /** false: not counted against the tenant's hourly limit (logging out must always work). */
  rateLimit?: false;
  /** Queues the handler sends to. */
  sendsTo?: QueueKey[];
  /** Calls the AI provider (Bedrock, when configured at deploy time). */
  ai?: true;
  /** Files the handler reads at run time, shipped beside its bundle (catalog/bundling.ts). */
  dataFiles?: readonly DataFiles[];
  /**
   * A GET route that also answers HEAD, as GET without a body (same status and headers, Content-Length
   * included): a public document that tools check for changes. In AWS its route takes ANY (HTTP API routes
   * are per method; ANY costs no extra route of the 300 an API may have) and the handler answers other
   * methods as the $default route does.
   */
  head?: true;
  /** A larger body limit than the API's 256 KB, for a provider's webhook that may send more. */
  maxBodyKb?: number;
  /** Uses the platform's Meta app (its id, secret and Graph API version: WhatsApp). */
  whatsappApp?: true;
  /**
   * The media bucket: `read` (GetObject and HeadObject; presigned download URLs are signed with it),
   * `write` (PutObject too; presigned uploads).
   */
  media?: 'read' | 'write';
  /** Issues realtime tickets: writes the Realtime table and knows the WebSocket API's URL (catalog/realtime.ts). */
  realtime?: true;
  /**
   * Where the SDKs offer the operation; `false` for calls no API client makes (Meta's webhook). Required,
   * so that a new route is not left out of the SDKs by accident.
   */
  sdk: SdkName | false;
}

/**
 * An operation's place in the SDKs, emitted into the contract as `x-sdk-resource` / `x-sdk-method` and
 * read by each SDK's generator. Names are snake_case words; each SDK spells them in its own idiom
 * (`saved_replies.rotate_secret` is `savedReplies.rotateSecret` in TypeScript).
 */
export interface SdkName {
  /** The client property, dotted for a sub-resource: `conversations.messages`. */
  resource: string;
  method: string;
  /** The SDKs' hand-written session code makes this call (login, refresh, logout): no method is generated. */
  core?: true;
}

export const API_PREFIXES = ['/api/v1', '/v1'] as const;

export const ROUTES: readonly RouteDef[] = [
  {
    id: 'auth-login',
    method: 'POST',
    path: '/auth/login',
    handler: 'auth/login',
    sdk: { resource: 'auth', method: 'login', core: true },
    auth: 'none',
    mainTable: 'write',
  },
  {
    id: 'auth-refresh',
    method: 'POST',
    path: '/auth/refresh',
    handler: 'auth/refresh',
    sdk: { resource: 'auth', method: 'refresh', core: true },
    auth: 'none',
    mainTable: 'write',
  },
  {
    id: 'auth-logout',
    method: 'POST',
    path: '/auth/logout',
    handler: 'auth/logout',
    sdk: { resource: 'auth', method: 'logout', core: true },
    auth: 'tenant',
    mainTable: 'write',
    rateLimit: false,
  },
  {
    id: 'auth-me',
    method: 'GET',
    path: '/auth/me',
    handler: 'auth/me',
    sdk: { resource: 'auth', method: 'me' },
    auth: 'tenant',
    mainTable: 'read',
  },

  {
    id: 'users-create',
    method: 'POST',
    path: '/users',
    handler: 'users/create',
    sdk: { resource: 'users', method: 'create' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'users-list',
    method: 'GET',
    path: '/users',
    handler: 'users/list',
    sdk: { resource: 'users', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'users-get',
    method: 'GET',
    path: '/users/{id}',
    handler: 'users/get',
    sdk: { resource: 'users', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'users-update',
    method: 'PATCH',
    path: '/users/{id}',
    handler: 'users/update',
    sdk: { resource: 'users', method: 'update' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'api-keys-create',
    method: 'POST',
    path: '/api-keys',
    handler: 'api-keys/create',
    sdk: { resource: 'api_keys', method: 'create' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'api-keys-list',
    method: 'GET',
    path: '/api-keys',
    handler: 'api-keys/list',
    sdk: { resource: 'api_keys', method: 'list' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'read',
  },
  {
    id: 'api-keys-revoke',
    method: 'DELETE',
    path: '/api-keys/{id}',
    handler: 'api-keys/revoke',
    sdk: { resource: 'api_keys', method: 'revoke' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'customers-list',
    method: 'GET',
    path: '/customers',
    handler: 'customers/list',
    sdk: { resource: 'customers', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'customers-get',
    method: 'GET',
    path: '/customers/{id}',
    handler: 'customers/get',
    sdk: { resource: 'customers', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'customers-update',
    method: 'PATCH',
    path: '/customers/{id}',
    handler: 'customers/update',
    sdk: { resource: 'customers', method: 'update' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'conversations-list',
    method: 'GET',
    path: '/conversations',
    handler: 'conversations/list',
    sdk: { resource: 'conversations', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'conversations-create',
    method: 'POST',
    path: '/conversations',
    handler: 'conversations/create',
    sdk: { resource: 'conversations', method: 'create' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'conversations-get',
    method: 'GET',
    path: '/conversations/{id}',
    handler: 'conversations/get',
    sdk: { resource: 'conversations', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
    media: 'read',
  },
  {
    id: 'conversations-update',
    method: 'PATCH',
    path: '/conversations/{id}',
    handler: 'conversations/update',
    sdk: { resource: 'conversations', method: 'update' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'messages-list',
    method: 'GET',
    path: '/conversations/{id}/messages',
    handler: 'conversations/messages-list',
    sdk: { resource: 'conversations.messages', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
    media: 'read',
  },
  {
    id: 'messages-send',
    method: 'POST',
    path: '/conversations/{id}/messages',
    handler: 'conversations/messages-send',
    sdk: { resource: 'conversations.messages', method: 'send' },
    auth: 'tenant',
    mainTable: 'write',
    media: 'read',
  },
  {
    id: 'messages-cancel',
    method: 'DELETE',
    path: '/conversations/{id}/messages/{message_id}',
    handler: 'conversations/messages-cancel',
    sdk: { resource: 'conversations.messages', method: 'cancel' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-list',
    method: 'GET',
    path: '/conversations/{id}/notes',
    handler: 'conversations/notes-list',
    sdk: { resource: 'conversations.notes', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'notes-create',
    method: 'POST',
    path: '/conversations/{id}/notes',
    handler: 'conversations/notes-create',
    sdk: { resource: 'conversations.notes', method: 'create' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-update',
    method: 'PATCH',
    path: '/conversations/{id}/notes/{note_id}',
    handler: 'conversations/notes-update',
    sdk: { resource: 'conversations.notes', method: 'update' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-delete',
    method: 'DELETE',
    path: '/conversations/{id}/notes/{note_id}',
    handler: 'conversations/notes-delete',
    sdk: { resource: 'conversations.notes', method: 'delete' },
    auth: 'tenant',
    mainTable: 'write',
  },

  {
    id: 'saved-replies-list',
    method: 'GET',
    path: '/saved-replies',
    handler: 'saved-replies/list',
    sdk: { resource: 'saved_replies', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'saved-replies-create',
    method: 'POST',
    path: '/saved-replies',
    handler: 'saved-replies/create',
    sdk: { resource: 'saved_replies', method: 'create' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-get',
    method: 'GET',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/get',
    sdk: { resource: 'saved_replies', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'saved-replies-update',
    method: 'PATCH',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/update',
    sdk: { resource: 'saved_replies', method: 'update' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-delete',
    method: 'DELETE',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/delete',
    sdk: { resource: 'saved_replies', method: 'delete' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-render',
    method: 'POST',
    path: '/saved-replies/{id}/render',
    handler: 'saved-replies/render',
    sdk: { resource: 'saved_replies', method: 'render' },
    auth: 'tenant',
    mainTable: 'read',
  },

  {
    id: 'templates-list',
    method: 'GET',
    path: '/templates',
    handler: 'templates/list',
    sdk: { resource: 'templates', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'templates-create',
    method: 'POST',
    path: '/templates',
    handler: 'templates/create',
    sdk: { resource: 'templates', method: 'create' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
    whatsappApp: true,
  },
  {
    id: 'templates-sync',
    method: 'POST',
    path: '/templates/sync',
    handler: 'templates/sync',
    sdk: { resource: 'templates', method: 'sync' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
    whatsappApp: true,
  },
  {
    id: 'templates-get',
    method: 'GET',
    path: '/templates/{id}',
    handler: 'templates/get',
    sdk: { resource: 'templates', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'templates-delete',
    method: 'DELETE',
    path: '/templates/{id}',
    handler: 'templates/delete',
    sdk: { resource: 'templates', method: 'delete' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
    whatsappApp: true,
  },

  {
    id: 'reminder-policy-get',
    method: 'GET',
    path: '/reminder-policy',
    handler: 'reminders/policy-get',
    sdk: { resource: 'reminder_policy', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'reminder-policy-update',
    method: 'PATCH',
    path: '/reminder-policy',
    handler: 'reminders/policy-update',
    sdk: { resource: 'reminder_policy', method: 'update' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'channels-list',
    method: 'GET',
    path: '/channels',
    handler: 'channels/list',
    sdk: { resource: 'channels', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'channels-connect-whatsapp',
    method: 'POST',
    path: '/channels/whatsapp',
    handler: 'channels/connect-whatsapp',
    sdk: { resource: 'channels', method: 'connect_whatsapp' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
    whatsappApp: true,
  },
  {
    id: 'channels-whatsapp-signup-config',
    method: 'GET',
    path: '/channels/whatsapp/embedded-signup',
    handler: 'channels/whatsapp-signup-config',
    auth: 'tenant',
    mainTable: 'read',
    whatsappApp: true,
    sdk: { resource: 'channels', method: 'whatsapp_signup_config' },
  },
  {
    id: 'channels-whatsapp-embedded-signup',
    method: 'POST',
    path: '/channels/whatsapp/embedded-signup',
    handler: 'channels/whatsapp-embedded-signup',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
    whatsappApp: true,
    sdk: { resource: 'channels', method: 'connect_whatsapp_by_embedded_signup' },
  },
  {
    id: 'sandbox-inbound',
    method: 'POST',
    path: '/channels/sandbox/inbound',
    handler: 'channels/sandbox-inbound',
    sdk: { resource: 'channels', method: 'sandbox_inbound' },
    auth: 'tenant',
    mainTable: 'write',
    media: 'write',
  },
  {
    id: 'media-uploads-create',
    method: 'POST',
    path: '/media/uploads',
    handler: 'media/uploads-create',
    sdk: { resource: 'media', method: 'create_upload' },
    auth: 'tenant',
    mainTable: 'write',
    media: 'write',
  },

  {
    id: 'whatsapp-webhook-verify',
    method: 'GET',
    path: '/channels/whatsapp/webhook',
    handler: 'channels/whatsapp-verify',
    sdk: false,
    auth: 'none',
    mainTable: 'read',
    whatsappApp: true,
  },
  {
    id: 'whatsapp-webhook',
    method: 'POST',
    path: '/channels/whatsapp/webhook',
    handler: 'channels/whatsapp-webhook',
    sdk: false,
    auth: 'none',
    // Verifies the signature and queues the payload: the inbound worker routes and stores it. Reads a
    // number's route only for a tenant's own Meta app (its secret is sealed).
    mainTable: 'read',
    dataKey: true,
    sendsTo: ['whatsappInbound'],
    // Meta batches up to a few MB; API Gateway takes 10 MB and Lambda 6 MB.
    maxBodyKb: 4096,
    whatsappApp: true,
  },

  {
    id: 'payments-list',
    method: 'GET',
    path: '/payments',
    handler: 'payments/list',
    sdk: { resource: 'payments', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'payments-create',
    method: 'POST',
    path: '/payments',
    handler: 'payments/create',
    sdk: { resource: 'payments', method: 'create' },
    auth: 'tenant',
    mainTable: 'write',
    // Stripe's key is unsealed to make the Checkout Session.
    dataKey: true,
  },
  {
    id: 'payments-settings-get',
    method: 'GET',
    path: '/payments/settings',
    handler: 'payments/settings-get',
    sdk: { resource: 'payments', method: 'get_settings' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'payments-settings-update',
    method: 'PATCH',
    path: '/payments/settings',
    handler: 'payments/settings-update',
    sdk: { resource: 'payments', method: 'update_settings' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'payments-connect-stripe',
    method: 'POST',
    path: '/payments/stripe',
    handler: 'payments/connect-stripe',
    sdk: { resource: 'payments', method: 'connect_stripe' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'payments-stripe-webhook',
    method: 'POST',
    path: '/payments/stripe/webhook/{tenant_id}',
    handler: 'payments/stripe-webhook',
    sdk: false,
    auth: 'none',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'payments-checkout-page',
    method: 'GET',
    path: '/payments/checkout/{tenant_id}/{id}',
    handler: 'payments/checkout-get',
    sdk: false,
    auth: 'none',
    mainTable: 'read',
  },
  {
    id: 'payments-checkout-pay',
    method: 'POST',
    path: '/payments/checkout/{tenant_id}/{id}/pay',
    handler: 'payments/checkout-pay',
    sdk: false,
    auth: 'none',
    mainTable: 'write',
  },
  {
    id: 'payments-checkout-decline',
    method: 'POST',
    path: '/payments/checkout/{tenant_id}/{id}/decline',
    handler: 'payments/checkout-decline',
    sdk: false,
    auth: 'none',
    mainTable: 'write',
  },
  {
    id: 'payments-get',
    method: 'GET',
    path: '/payments/{id}',
    handler: 'payments/get',
    sdk: { resource: 'payments', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'payments-refund',
    method: 'POST',
    path: '/payments/{id}/refund',
    handler: 'payments/refund',
    sdk: { resource: 'payments', method: 'refund' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'payments-cancel',
    method: 'POST',
    path: '/payments/{id}/cancel',
    handler: 'payments/cancel',
    sdk: { resource: 'payments', method: 'cancel' },
    auth: 'tenant',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'payments-send',
    method: 'POST',
    path: '/payments/{id}/send',
    handler: 'payments/send',
    sdk: { resource: 'payments', method: 'send' },
    auth: 'tenant',
    mainTable: 'write',
  },

  {
    id: 'bookings-list',
    method: 'GET',
    path: '/bookings',
    handler: 'bookings/list',
    sdk: { resource: 'bookings', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-create',
    method: 'POST',
    path: '/bookings',
    handler: 'bookings/create',
    sdk: { resource: 'bookings', method: 'create' },
    auth: 'tenant',
    mainTable: 'write',
    // A booking's payment: Stripe's key is unsealed to make its link, close it or refund it.
    dataKey: true,
  },
  {
    id: 'bookings-availability',
    method: 'GET',
    path: '/bookings/availability',
    handler: 'bookings/availability',
    sdk: { resource: 'bookings', method: 'availability' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-get',
    method: 'GET',
    path: '/bookings/{id}',
    handler: 'bookings/get',
    sdk: { resource: 'bookings', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-update',
    method: 'PATCH',
    path: '/bookings/{id}',
    handler: 'bookings/update',
    sdk: { resource: 'bookings', method: 'update' },
    auth: 'tenant',
    mainTable: 'write',
    // A booking's payment: Stripe's key is unsealed to make its link, close it or refund it.
    dataKey: true,
  },
  {
    id: 'bookings-cancel',
    method: 'DELETE',
    path: '/bookings/{id}',
    handler: 'bookings/cancel',
    sdk: { resource: 'bookings', method: 'cancel' },
    auth: 'tenant',
    mainTable: 'write',
    // A booking's payment: Stripe's key is unsealed to make its link, close it or refund it.
    dataKey: true,
  },
  {
    id: 'bookings-notify',
    method: 'POST',
    path: '/bookings/{id}/notify',
    handler: 'bookings/notify',
    sdk: { resource: 'bookings', method: 'notify' },
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'schedules-list',
    method: 'GET',
    path: '/schedules',
    handler: 'bookings/schedules-list',
    sdk: { resource: 'schedules', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'schedules-create',
    method: 'POST',
    path: '/schedules',
    handler: 'bookings/schedules-create',
    sdk: { resource: 'schedules', method: 'create' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'schedules-get',
    method: 'GET',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-get',
    sdk: { resource: 'schedules', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'schedules-update',
    method: 'PATCH',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-update',
    sdk: { resource: 'schedules', method: 'update' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'schedules-delete',
    method: 'DELETE',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-delete',
    sdk: { resource: 'schedules', method: 'delete' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'ai-analyze',
    method: 'POST',
    path: '/ai/analyze',
    handler: 'ai/analyze',
    sdk: { resource: 'ai', method: 'analyze' },
    auth: 'tenant',
    mainTable: 'read',
    ai: true,
  },
  {
    id: 'ai-suggest',
    method: 'POST',
    path: '/ai/suggest',
    handler: 'ai/suggest',
    sdk: { resource: 'ai', method: 'suggest' },
    auth: 'tenant',
    mainTable: 'read',
    ai: true,
  },
  {
    id: 'ai-categorize',
    method: 'POST',
    path: '/ai/categorize',
    handler: 'ai/categorize',
    sdk: { resource: 'ai', method: 'categorize' },
    auth: 'tenant',
    mainTable: 'write',
    ai: true,
  },

  {
    id: 'webhooks-create',
    method: 'POST',
    path: '/webhooks',
    handler: 'webhooks/create',
    sdk: { resource: 'webhooks', method: 'create' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-list',
    method: 'GET',
    path: '/webhooks',
    handler: 'webhooks/list',
    sdk: { resource: 'webhooks', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhooks-get',
    method: 'GET',
    path: '/webhooks/{id}',
    handler: 'webhooks/get',
    sdk: { resource: 'webhooks', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
    dataKey: true,
  },
  {
    id: 'webhooks-update',
    method: 'PATCH',
    path: '/webhooks/{id}',
    handler: 'webhooks/update',
    sdk: { resource: 'webhooks', method: 'update' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'webhooks-delete',
    method: 'DELETE',
    path: '/webhooks/{id}',
    handler: 'webhooks/delete',
    sdk: { resource: 'webhooks', method: 'delete' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-rotate',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    handler: 'webhooks/rotate',
    sdk: { resource: 'webhooks', method: 'rotate_secret' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-test',
    method: 'POST',
    path: '/webhooks/{id}/test',
    handler: 'webhooks/test-event',
    sdk: { resource: 'webhooks', method: 'test' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    sendsTo: ['webhookDelivery'],
  },
  {
    id: 'webhooks-recover',
    method: 'POST',
    path: '/webhooks/{id}/recover',
    handler: 'webhooks/recover',
    sdk: { resource: 'webhooks', method: 'recover' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    sendsTo: ['webhookDelivery'],
  },
  {
    id: 'webhooks-deliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    handler: 'webhooks/deliveries-list',
    sdk: { resource: 'webhooks', method: 'deliveries' },
    auth: 'tenant',
    mainTable: 'read',
    dataKey: true,
  },
  {
    id: 'webhook-deliveries-list',
    method: 'GET',
    path: '/webhook-deliveries',
    handler: 'webhooks/failed-list',
    sdk: { resource: 'webhook_deliveries', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhook-deliveries-get',
    method: 'GET',
    path: '/webhook-deliveries/{id}',
    handler: 'webhooks/delivery-get',
    sdk: { resource: 'webhook_deliveries', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhook-deliveries-retry',
    method: 'POST',
    path: '/webhook-deliveries/{id}/retry',
    handler: 'webhooks/delivery-retry',
    sdk: { resource: 'webhook_deliveries', method: 'retry' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    sendsTo: ['webhookDelivery'],
  },

  {
    id: 'events-list',
    method: 'GET',
    path: '/events',
    handler: 'events/list',
    sdk: { resource: 'events', method: 'list' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'events-get',
    method: 'GET',
    path: '/events/{id}',
    handler: 'events/get',
    sdk: { resource: 'events', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'realtime-tickets-create',
    method: 'POST',
    path: '/realtime/tickets',
    handler: 'realtime/tickets-create',
    sdk: { resource: 'realtime', method: 'create_ticket' },
    auth: 'tenant',
    mainTable: 'read',
    realtime: true,
  },

  {
    id: 'settings-get',
    method: 'GET',
    path: '/settings',
    handler: 'tenants/settings-get',
    sdk: { resource: 'settings', method: 'get' },
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'settings-update',
    method: 'PATCH',
    path: '/settings',
    handler: 'tenants/settings-update',
    sdk: { resource: 'settings', method: 'update' },
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'tenants-create',
    method: 'POST',
    path: '/platform/tenants',
    handler: 'tenants/create',
    sdk: { resource: 'tenants', method: 'create' },
    auth: 'platform',
    mainTable: 'write',
  },
  {
    id: 'tenants-list',
    method: 'GET',
    path: '/platform/tenants',
    handler: 'tenants/list',
    sdk: { resource: 'tenants', method: 'list' },
    auth: 'platform',
    mainTable: 'read',
  },
  {
    id: 'tenants-get',
    method: 'GET',
    path: '/platform/tenants/{id}',
    handler: 'tenants/get',
    sdk: { resource: 'tenants', method: 'get' },
    auth: 'platform',
    mainTable: 'read',
  },
  {
    id: 'tenants-update',
    method: 'PATCH',
    path: '/platform/tenants/{id}',
    handler: 'tenants/update',
    sdk: { resource: 'tenants', method: 'update' },
    auth: 'platform',
    mainTable: 'write',
  },

  {
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'docs/openapi',
    sdk: { resource: 'meta', method: 'openapi' },
    auth: 'none',
    mainTable: 'none',
    dataFiles: [OPENAPI_DOCUMENT],
    head: true,
  },
];

/** The method of a route's API Gateway route: ANY where it answers HEAD too (RouteDef.head). */
export const gatewayMethodOf = (route: RouteDef): HttpMethod | 'ANY' => (route.head ? 'ANY' : route.method);

/** The methods a route answers: its own, and HEAD beside a GET that takes it. */
export const methodsOf = (route: RouteDef): readonly string[] => (route.head ? [route.method, 'HEAD'] : [route.method]);

function lookUp(id: string): RouteDef {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/**
 * A handler's own route. A handler's bundle has its route written in at build time (BUNDLED_ROUTE,
 * catalog/bundling.ts `routeDefine`): the expression below then folds to that route alone, and the rest
 * of this table is left out of the bundle, which its cold start would otherwise parse. Elsewhere (tests,
 * the local runtime) the route is looked up.
 */
export const routeById = (id: string): RouteDef =>
  process.env.BUNDLED_ROUTE !== undefined ? (JSON.parse(process.env.BUNDLED_ROUTE) as RouteDef) : lookUp(id);

/** Routes that seal or unseal data with the data key: channel credentials, and stored idempotent responses. */
export const usesDataKey = (route: RouteDef): boolean =>
  route.dataKey === true || (route.method === 'POST' && route.auth !== 'none');
