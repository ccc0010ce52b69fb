// Public: who is calling, for every feature's handlers and services.
import type { Role } from '../../catalog/routes';
import type { Tenant } from '../tenants/tenant';

/** Who is calling. Tenant principals carry the tenant record, read in the same round trip as the credential. */
export type TenantPrincipal =
  | { kind: 'api_key'; tenant: Tenant; role: Role; keyId: string }
  | { kind: 'user'; tenant: Tenant; role: Role; userId: string; sessionId: string };

export type Principal = TenantPrincipal | { kind: 'platform' } | { kind: 'anonymous' };

export const actorId = (p: TenantPrincipal): string => (p.kind === 'api_key' ? p.keyId : p.userId);

/**
 * Who wrote a message or made a change: a customer (inbound messages), a user, an API key, or the
 * platform itself (`system`: a booking reminder, the answer to a customer's tap).
 */
export interface Sender {
  type: 'customer' | 'user' | 'api_key' | 'system';
  id: string;
}

/** The sender a tenant caller writes as: the user behind a token, or the API key. */
export const senderOf = (p: TenantPrincipal): Sender =>
  p.kind === 'user' ? { type: 'user', id: p.userId } : { type: 'api_key', id: p.keyId };

export const roleAllows = (have: Role, need: Role | undefined): boolean =>
  !need || need === 'agent' || have === 'admin';
