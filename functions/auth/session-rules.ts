/** Login sessions: pure rules. A session is one refresh-token family. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface Session {
  id: string;
  tenant_id: string;
  user_id: string;
  /** The jti of the only refresh token that may be used next. */
  refresh_jti: string;
  created_at: string;
  /**
   * The user's `credentials_changed_at` when the session started (null: never changed). The session ends
   * when that changes: compared as a value, not as a time, because the login and the change ran on two
   * hosts' clocks. Absent on sessions from before it, which compare times.
   */
  credentials_at?: string | null;
  /** Absolute: refreshing never extends it. */
  expires_at: string;
  revoked_at?: string;
  revoked_reason?: 'logout' | 'refresh_reuse';
}

export const isSessionActive = (session: Session, now: Date): boolean =>
  !session.revoked_at && Date.parse(session.expires_at) > now.getTime();

export type RefreshOutcome = 'rotate' | 'expired' | 'revoked' | 'reused';

/** A refresh token that is not the latest one means it leaked or was replayed: the family dies. */
export function refreshOutcome(session: Session, presentedJti: string, now: Date): RefreshOutcome {
  if (session.revoked_at) return 'revoked';
  if (Date.parse(session.expires_at) <= now.getTime()) return 'expired';
  if (session.refresh_jti !== presentedJti) return 'reused';
  return 'rotate';
}

/** A password change or a disable ends every session that started before it. */
export const predatesCredentials = (
  session: Pick<Session, 'created_at' | 'credentials_at'>,
  user: { credentials_changed_at?: string | null },
): boolean =>
  session.credentials_at !== undefined
    ? session.credentials_at !== (user.credentials_changed_at ?? null)
    : !!user.credentials_changed_at && session.created_at < user.credentials_changed_at;
