import { SESSION_LIFETIME_MS, isSessionActive, refreshOutcome, type Session } from '../../functions/auth/session-rules';

const start = new Date('2026-03-01T12:00:00Z');
const session: Session = {
  id: 'ses_1',
  tenant_id: 't',
  user_id: 'u',
  refresh_jti: 'rt_current',
  created_at: start.toISOString(),
  expires_at: new Date(start.getTime() + SESSION_LIFETIME_MS).toISOString(),
};
const at = (days: number) => new Date(start.getTime() + days * 86_400_000);

describe('session rules', () => {
  it('rotates the current refresh token within 30 days', () => {
    expect(refreshOutcome(session, 'rt_current', at(29.9))).toBe('rotate');
  });

  it('is absolute: expired after 30 days however often it was refreshed', () => {
    expect(refreshOutcome(session, 'rt_current', at(30))).toBe('expired');
    expect(isSessionActive(session, at(30.1))).toBe(false);
  });

  it('treats an older refresh token as reuse', () => {
    expect(refreshOutcome(session, 'rt_old', at(1))).toBe('reused');
  });

  it('refuses revoked sessions before anything else', () => {
    const revoked = { ...session, revoked_at: at(1).toISOString(), revoked_reason: 'logout' as const };
    expect(refreshOutcome(revoked, 'rt_current', at(2))).toBe('revoked');
    expect(isSessionActive(revoked, at(2))).toBe(false);
  });
});
