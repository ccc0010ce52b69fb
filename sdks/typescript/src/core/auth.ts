/**
 * Credentials: a static bearer (API key or platform token) and a login session that refreshes its access
 * token before it expires and once after a 401, with one refresh in flight at a time (the API revokes
 * a session whose rotated refresh token is presented twice, so two parallel refreshes would end it).
 */
import { AuthenticationError, MessagingError } from './errors.js';
import type { Credentials, Transport } from './http.js';
import type { Tokens } from '../types.js';

/** `Authorization: Bearer <token>` and, for tenant routes, `X-Tenant-ID`. */
export class StaticCredentials implements Credentials {
  constructor(
    private readonly token: string,
    private readonly tenantId?: string,
  ) {}

  async authorize(headers: Headers): Promise<string> {
    headers.set('Authorization', `Bearer ${this.token}`);
    if (this.tenantId) headers.set('X-Tenant-ID', this.tenantId);
    return this.token;
  }
}

export interface SessionOptions {
  /** Refresh this many seconds before the access token expires. Default 60. */
  refreshLeewaySeconds?: number;
  /** Called with the new tokens after login and every refresh (to persist them), and with null after logout. */
  onSessionChange?: (tokens: Tokens | null) => void | Promise<void>;
}

/** A login session's tokens, kept fresh. */
export class SessionCredentials implements Credentials {
  private current: Tokens | null;
  /** When the access token expires by this machine's clock (from `expires_in` when fresh). */
  private accessDeadline: number;
  private inflight: Promise<Tokens> | null = null;
  private readonly leewayMs: number;

  constructor(
    private readonly transport: Transport,
    tokens: Tokens,
    private readonly options: SessionOptions = {},
    receivedAt?: number,
  ) {
    this.current = tokens;
    this.accessDeadline = deadlineOf(tokens, receivedAt);
    this.leewayMs = (options.refreshLeewaySeconds ?? 60) * 1000;
  }

  /** The current tokens, or null after logout. */
  get tokens(): Tokens | null {
    return this.current;
  }

  async authorize(headers: Headers): Promise<string> {
    let tokens = this.requireTokens();
    if (Date.now() >= this.accessDeadline - this.leewayMs) tokens = await this.refresh();
    headers.set('Authorization', `Bearer ${tokens.access_token}`);
    headers.set('X-Tenant-ID', tokens.tenant_id);
    return tokens.access_token;
  }

  async recover(rejectedToken: string | undefined): Promise<boolean> {
    const tokens = this.current;
    if (!tokens) return false;
    // Another request refreshed meanwhile: just repeat with the newer token.
    if (rejectedToken !== undefined && tokens.access_token !== rejectedToken) return true;
    try {
      await this.refresh();
      return true;
    } catch (error) {
      if (error instanceof AuthenticationError) return false; // the session is over: the 401 stands
      throw error;
    }
  }

  /** Rotates the token pair now (one refresh at a time; concurrent callers share it). */
  refresh(): Promise<Tokens> {
    if (!this.inflight) {
      this.inflight = this.doRefresh().finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  /** Forget the tokens (after logout). */
  async clear(): Promise<void> {
    this.current = null;
    await this.options.onSessionChange?.(null);
  }

  private async doRefresh(): Promise<Tokens> {
    const tokens = this.requireTokens();
    const sentAt = Date.now();
    const response = await this.transport.request<Tokens>({
      method: 'POST',
      path: '/auth/refresh',
      body: { refresh_token: tokens.refresh_token },
      auth: 'none',
      // A refresh the API carried out but whose answer was lost cannot be repeated: the old refresh
      // token would count as stolen and end the session. Retry only what the API refused (429, 503).
      retry: 'refused',
      options: { headers: { 'X-Tenant-ID': tokens.tenant_id } },
    });
    // Logged out while the refresh ran: keep it that way.
    if (this.current === null) throw new MessagingError('The session was logged out.');
    this.current = response.data;
    this.accessDeadline = deadlineOf(response.data, sentAt);
    await this.options.onSessionChange?.(response.data);
    return response.data;
  }

  private requireTokens(): Tokens {
    if (!this.current) throw new MessagingError('This client has logged out; log in again.');
    return this.current;
  }
}

function deadlineOf(tokens: Tokens, receivedAt: number | undefined): number {
  if (receivedAt !== undefined && typeof tokens.expires_in === 'number') return receivedAt + tokens.expires_in * 1000;
  const at = Date.parse(tokens.expires_at);
  return Number.isNaN(at) ? 0 : at;
}
