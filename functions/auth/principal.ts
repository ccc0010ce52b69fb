import type { Role } from '../../lib/routes';
import type { Tenant } from '../tenants/tenant';

/** Who is calling. Tenant principals carry the tenant record, read in the same round trip as the credential. */
export type TenantPrincipal =
  | { kind: 'api_key'; tenant: Tenant; role: Role; keyId: string }
  | { kind: 'user'; tenant: Tenant; role: Role; userId: string; sessionId: string };

export type Principal = TenantPrincipal | { kind: 'platform' } | { kind: 'anonymous' };

export const actorId = (p: TenantPrincipal): string => (p.kind === 'api_key' ? p.keyId : p.userId);

export const roleAllows = (have: Role, need: Role | undefined): boolean => !need || need === 'agent' || have === 'admin';
