/**
 * The one route table. The CDK stateless stack makes one Lambda per entry and the local gateway serves
 * the same entries with the same handler modules. Pure data: handlers import it to learn their own
 * auth rules, so it must stay free of CDK imports.
 */
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
  /** Least-privilege access to the main table (the ephemeral table is always read-write). */
  mainTable: 'read' | 'write';
  /** Reads or writes encrypted secrets in the table (channel credentials). */
  dataKey?: true;
}

export const API_PREFIXES = ['/api/v1', '/v1'] as const;

export const ROUTES: readonly RouteDef[] = [
  { id: 'auth-login', method: 'POST', path: '/auth/login', handler: 'auth/login', auth: 'none', mainTable: 'write' },
  { id: 'auth-refresh', method: 'POST', path: '/auth/refresh', handler: 'auth/refresh', auth: 'none', mainTable: 'write' },
  { id: 'auth-logout', method: 'POST', path: '/auth/logout', handler: 'auth/logout', auth: 'tenant', mainTable: 'write' },
  { id: 'auth-me', method: 'GET', path: '/auth/me', handler: 'auth/me', auth: 'tenant', mainTable: 'read' },

  { id: 'users-create', method: 'POST', path: '/users', handler: 'users/create', auth: 'tenant', role: 'admin', mainTable: 'write' },
  { id: 'users-list', method: 'GET', path: '/users', handler: 'users/list', auth: 'tenant', mainTable: 'read' },
  { id: 'users-get', method: 'GET', path: '/users/{id}', handler: 'users/get', auth: 'tenant', mainTable: 'read' },
  { id: 'users-update', method: 'PATCH', path: '/users/{id}', handler: 'users/update', auth: 'tenant', role: 'admin', mainTable: 'write' },

  { id: 'api-keys-create', method: 'POST', path: '/api-keys', handler: 'api-keys/create', auth: 'tenant', role: 'admin', mainTable: 'write' },
  { id: 'api-keys-list', method: 'GET', path: '/api-keys', handler: 'api-keys/list', auth: 'tenant', role: 'admin', mainTable: 'read' },
  { id: 'api-keys-revoke', method: 'DELETE', path: '/api-keys/{id}', handler: 'api-keys/revoke', auth: 'tenant', role: 'admin', mainTable: 'write' },

  { id: 'tenants-create', method: 'POST', path: '/platform/tenants', handler: 'tenants/create', auth: 'platform', mainTable: 'write' },
  { id: 'tenants-list', method: 'GET', path: '/platform/tenants', handler: 'tenants/list', auth: 'platform', mainTable: 'read' },
  { id: 'tenants-get', method: 'GET', path: '/platform/tenants/{id}', handler: 'tenants/get', auth: 'platform', mainTable: 'read' },
  { id: 'tenants-update', method: 'PATCH', path: '/platform/tenants/{id}', handler: 'tenants/update', auth: 'platform', mainTable: 'write' },
];

export function routeById(id: string): RouteDef {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}
