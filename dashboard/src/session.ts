/**
 * The signed-in session. The access token lives in memory only (inside the SDK client). The refresh
 * token is kept in this tab's sessionStorage so a reload stays signed in; it is gone when the tab closes.
 * See the README's "Dashboard" section for the trade-off.
 */
import { MessagingClient, type Tokens } from '@messaging-platform/sdk';

const STORAGE_KEY = 'messaging-dashboard.session';
const TENANTS_KEY = 'messaging-dashboard.tenants';

/** What survives a reload: never the access token. */
interface Saved {
  refresh_token: string;
  refresh_expires_at: string;
  tenant_id: string;
  session_id: string;
  user: Tokens['user'];
}

export const clientOptions = (apiUrl: string) => ({
  baseUrl: apiUrl,
  // A long Retry-After (an hourly limit used up, a login lockout) is shown to the user, not waited out.
  maxRetryDelay: 3000,
  maxRetries: 1,
  timeout: 20_000,
});

export function persist(tokens: Tokens | null): void {
  if (!tokens) return sessionStorage.removeItem(STORAGE_KEY);
  const saved: Saved = {
    refresh_token: tokens.refresh_token,
    refresh_expires_at: tokens.refresh_expires_at,
    tenant_id: tokens.tenant_id,
    session_id: tokens.session_id,
    user: tokens.user,
  };
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(saved));
}

/** A client on the session saved in this tab, or null. Its first request refreshes the access token. */
export function resumeSession(apiUrl: string): MessagingClient | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as Saved;
    if (!saved.refresh_token || Date.parse(saved.refresh_expires_at) <= Date.now()) throw new Error('expired');
    const tokens: Tokens = {
      ...saved,
      token_type: 'Bearer',
      // No access token was kept: an expired placeholder makes the SDK refresh before the first call.
      access_token: 'none',
      expires_in: 0,
      expires_at: new Date(0).toISOString(),
    };
    return MessagingClient.fromSession(tokens, { ...clientOptions(apiUrl), onSessionChange: persist });
  } catch {
    sessionStorage.removeItem(STORAGE_KEY);
    return null;
  }
}

/** Tenants this browser signed in to (id and name only), for the tenant chooser. */
export interface KnownTenant {
  id: string;
  name: string;
}

export function knownTenants(): KnownTenant[] {
  try {
    const list = JSON.parse(localStorage.getItem(TENANTS_KEY) ?? '[]') as KnownTenant[];
    return Array.isArray(list) ? list.filter((t) => typeof t.id === 'string' && typeof t.name === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberTenant(tenant: KnownTenant): void {
  const others = knownTenants().filter((t) => t.id !== tenant.id);
  localStorage.setItem(TENANTS_KEY, JSON.stringify([{ id: tenant.id, name: tenant.name }, ...others].slice(0, 10)));
}
