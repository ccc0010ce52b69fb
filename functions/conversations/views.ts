import type { Sender } from './service';
import type { TenantPrincipal } from '../auth/principal';

/** Who is writing: the user behind a token, or the API key. */
export const senderOf = (p: TenantPrincipal): Sender => (p.kind === 'user' ? { type: 'user', id: p.userId } : { type: 'api_key', id: p.keyId });
