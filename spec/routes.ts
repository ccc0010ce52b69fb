/**
 * The one route table. The CDK stateless stack makes one Lambda per entry and the local gateway serves
 * the same entries with the same handler modules. Pure data: handlers import it to learn their own
 * auth rules, so it must stay free of CDK imports.
 */
import { OPENAPI_DOCUMENT, type DataFiles } from './bundling';
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
  /** Files the handler reads at run time, shipped beside its bundle (spec/bundling.ts). */
  dataFiles?: readonly DataFiles[];
  /**
   * A GET route that also answers HEAD, as GET without a body (same status and headers, Content-Length
   * included): a public document that tools check for changes. In AWS its route takes ANY (HTTP API routes
   * are per method; ANY costs no extra route of the 300 an API may have) and the handler answers other
   * methods as the $default route does.
   */
  head?: true;
}

export const API_PREFIXES = ['/api/v1', '/v1'] as const;

export const ROUTES: readonly RouteDef[] = [
  { id: 'auth-login', method: 'POST', path: '/auth/login', handler: 'auth/login', auth: 'none', mainTable: 'write' },
  {
    id: 'auth-refresh',
    method: 'POST',
    path: '/auth/refresh',
    handler: 'auth/refresh',
    auth: 'none',
    mainTable: 'write',
  },
  {
    id: 'auth-logout',
    method: 'POST',
    path: '/auth/logout',
    handler: 'auth/logout',
    auth: 'tenant',
    mainTable: 'write',
    rateLimit: false,
  },
  { id: 'auth-me', method: 'GET', path: '/auth/me', handler: 'auth/me', auth: 'tenant', mainTable: 'read' },

  {
    id: 'users-create',
    method: 'POST',
    path: '/users',
    handler: 'users/create',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  { id: 'users-list', method: 'GET', path: '/users', handler: 'users/list', auth: 'tenant', mainTable: 'read' },
  { id: 'users-get', method: 'GET', path: '/users/{id}', handler: 'users/get', auth: 'tenant', mainTable: 'read' },
  {
    id: 'users-update',
    method: 'PATCH',
    path: '/users/{id}',
    handler: 'users/update',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'api-keys-create',
    method: 'POST',
    path: '/api-keys',
    handler: 'api-keys/create',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'api-keys-list',
    method: 'GET',
    path: '/api-keys',
    handler: 'api-keys/list',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'read',
  },
  {
    id: 'api-keys-revoke',
    method: 'DELETE',
    path: '/api-keys/{id}',
    handler: 'api-keys/revoke',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'customers-list',
    method: 'GET',
    path: '/customers',
    handler: 'customers/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'customers-get',
    method: 'GET',
    path: '/customers/{id}',
    handler: 'customers/get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'customers-update',
    method: 'PATCH',
    path: '/customers/{id}',
    handler: 'customers/update',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'conversations-list',
    method: 'GET',
    path: '/conversations',
    handler: 'conversations/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'conversations-create',
    method: 'POST',
    path: '/conversations',
    handler: 'conversations/create',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'conversations-get',
    method: 'GET',
    path: '/conversations/{id}',
    handler: 'conversations/get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'conversations-update',
    method: 'PATCH',
    path: '/conversations/{id}',
    handler: 'conversations/update',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'messages-list',
    method: 'GET',
    path: '/conversations/{id}/messages',
    handler: 'conversations/messages-list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'messages-send',
    method: 'POST',
    path: '/conversations/{id}/messages',
    handler: 'conversations/messages-send',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-list',
    method: 'GET',
    path: '/conversations/{id}/notes',
    handler: 'conversations/notes-list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'notes-create',
    method: 'POST',
    path: '/conversations/{id}/notes',
    handler: 'conversations/notes-create',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-update',
    method: 'PATCH',
    path: '/conversations/{id}/notes/{note_id}',
    handler: 'conversations/notes-update',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'notes-delete',
    method: 'DELETE',
    path: '/conversations/{id}/notes/{note_id}',
    handler: 'conversations/notes-delete',
    auth: 'tenant',
    mainTable: 'write',
  },

  {
    id: 'saved-replies-list',
    method: 'GET',
    path: '/saved-replies',
    handler: 'saved-replies/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'saved-replies-create',
    method: 'POST',
    path: '/saved-replies',
    handler: 'saved-replies/create',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-get',
    method: 'GET',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'saved-replies-update',
    method: 'PATCH',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/update',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-delete',
    method: 'DELETE',
    path: '/saved-replies/{id}',
    handler: 'saved-replies/delete',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'saved-replies-render',
    method: 'POST',
    path: '/saved-replies/{id}/render',
    handler: 'saved-replies/render',
    auth: 'tenant',
    mainTable: 'read',
  },

  {
    id: 'channels-list',
    method: 'GET',
    path: '/channels',
    handler: 'channels/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'channels-connect-whatsapp',
    method: 'POST',
    path: '/channels/whatsapp',
    handler: 'channels/connect-whatsapp',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    dataKey: true,
  },
  {
    id: 'sandbox-inbound',
    method: 'POST',
    path: '/channels/sandbox/inbound',
    handler: 'channels/sandbox-inbound',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'whatsapp-webhook-verify',
    method: 'GET',
    path: '/channels/whatsapp/webhook',
    handler: 'channels/whatsapp-verify',
    auth: 'none',
    mainTable: 'read',
  },
  {
    id: 'whatsapp-webhook',
    method: 'POST',
    path: '/channels/whatsapp/webhook',
    handler: 'channels/whatsapp-webhook',
    auth: 'none',
    mainTable: 'write',
    dataKey: true,
  },

  {
    id: 'bookings-list',
    method: 'GET',
    path: '/bookings',
    handler: 'bookings/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-create',
    method: 'POST',
    path: '/bookings',
    handler: 'bookings/create',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'bookings-availability',
    method: 'GET',
    path: '/bookings/availability',
    handler: 'bookings/availability',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-get',
    method: 'GET',
    path: '/bookings/{id}',
    handler: 'bookings/get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'bookings-update',
    method: 'PATCH',
    path: '/bookings/{id}',
    handler: 'bookings/update',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'bookings-cancel',
    method: 'DELETE',
    path: '/bookings/{id}',
    handler: 'bookings/cancel',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'bookings-notify',
    method: 'POST',
    path: '/bookings/{id}/notify',
    handler: 'bookings/notify',
    auth: 'tenant',
    mainTable: 'write',
  },
  {
    id: 'schedules-list',
    method: 'GET',
    path: '/schedules',
    handler: 'bookings/schedules-list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'schedules-create',
    method: 'POST',
    path: '/schedules',
    handler: 'bookings/schedules-create',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'schedules-get',
    method: 'GET',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'schedules-update',
    method: 'PATCH',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-update',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'schedules-delete',
    method: 'DELETE',
    path: '/schedules/{resource_id}',
    handler: 'bookings/schedules-delete',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },

  {
    id: 'ai-analyze',
    method: 'POST',
    path: '/ai/analyze',
    handler: 'ai/analyze',
    auth: 'tenant',
    mainTable: 'read',
    ai: true,
  },
  {
    id: 'ai-suggest',
    method: 'POST',
    path: '/ai/suggest',
    handler: 'ai/suggest',
    auth: 'tenant',
    mainTable: 'read',
    ai: true,
  },
  {
    id: 'ai-categorize',
    method: 'POST',
    path: '/ai/categorize',
    handler: 'ai/categorize',
    auth: 'tenant',
    mainTable: 'write',
    ai: true,
  },

  {
    id: 'webhooks-create',
    method: 'POST',
    path: '/webhooks',
    handler: 'webhooks/create',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-list',
    method: 'GET',
    path: '/webhooks',
    handler: 'webhooks/list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhooks-get',
    method: 'GET',
    path: '/webhooks/{id}',
    handler: 'webhooks/get',
    auth: 'tenant',
    mainTable: 'read',
    dataKey: true,
  },
  {
    id: 'webhooks-update',
    method: 'PATCH',
    path: '/webhooks/{id}',
    handler: 'webhooks/update',
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
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-rotate',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    handler: 'webhooks/rotate',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
  },
  {
    id: 'webhooks-test',
    method: 'POST',
    path: '/webhooks/{id}/test',
    handler: 'webhooks/test-event',
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
    auth: 'tenant',
    mainTable: 'read',
    dataKey: true,
  },
  {
    id: 'webhook-deliveries-list',
    method: 'GET',
    path: '/webhook-deliveries',
    handler: 'webhooks/failed-list',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhook-deliveries-get',
    method: 'GET',
    path: '/webhook-deliveries/{id}',
    handler: 'webhooks/delivery-get',
    auth: 'tenant',
    mainTable: 'read',
  },
  {
    id: 'webhook-deliveries-retry',
    method: 'POST',
    path: '/webhook-deliveries/{id}/retry',
    handler: 'webhooks/delivery-retry',
    auth: 'tenant',
    role: 'admin',
    mainTable: 'write',
    sendsTo: ['webhookDelivery'],
  },

  { id: 'events-list', method: 'GET', path: '/events', handler: 'events/list', auth: 'tenant', mainTable: 'read' },
  {
    id: 'events-get',
    method: 'GET',
    path: '/events/{id}',
    handler: 'events/get',
    auth: 'tenant',
    mainTable: 'read',
  },

  {
    id: 'tenants-create',
    method: 'POST',
    path: '/platform/tenants',
    handler: 'tenants/create',
    auth: 'platform',
    mainTable: 'write',
  },
  {
    id: 'tenants-list',
    method: 'GET',
    path: '/platform/tenants',
    handler: 'tenants/list',
    auth: 'platform',
    mainTable: 'read',
  },
  {
    id: 'tenants-get',
    method: 'GET',
    path: '/platform/tenants/{id}',
    handler: 'tenants/get',
    auth: 'platform',
    mainTable: 'read',
  },
  {
    id: 'tenants-update',
    method: 'PATCH',
    path: '/platform/tenants/{id}',
    handler: 'tenants/update',
    auth: 'platform',
    mainTable: 'write',
  },

  {
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'docs/openapi',
    auth: 'none',
    mainTable: 'none',
    dataFiles: [OPENAPI_DOCUMENT],
    head: true,
  },
];

/** The methods a route answers: its own, and HEAD beside a GET that takes it. */
export const methodsOf = (route: RouteDef): readonly string[] => (route.head ? [route.method, 'HEAD'] : [route.method]);

export function routeById(id: string): RouteDef {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/** Routes that seal or unseal data with the data key: channel credentials, and stored idempotent responses. */
export const usesDataKey = (route: RouteDef): boolean =>
  route.dataKey === true || (route.method === 'POST' && route.auth !== 'none');
