/**
 * The signed-in session. The access token lives in memory only (inside the SDK client). The refresh
 * token is kept in this tab's sessionStorage so a reload stays signed in; it is gone when the tab closes.
 * See docs/dashboard.md (Sessions) for the trade-off.
 */
import { MessagingClient, type Tokens } from '@messaging-platform/sdk';

const STORAGE_KEY = 'messaging-dashboard.session';

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

let resumed: { apiUrl: string; client: MessagingClient | null } | undefined;

/**
 * A client on the session saved in this tab, or null. Its first request refreshes the access token.
 * One per page load: a second client would refresh with the same token, which the API treats as reuse
 * and answers by revoking the session (React runs effects twice in development).
 */
export function resumeSession(apiUrl: string): MessagingClient | null {
  if (resumed?.apiUrl !== apiUrl) resumed = { apiUrl, client: restore(apiUrl) };
  return resumed.client;
}

function restore(apiUrl: string): MessagingClient | null {
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
