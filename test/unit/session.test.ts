import {
  SESSION_LIFETIME_MS,
  isSessionActive,
  predatesCredentials,
  refreshOutcome,
  type Session,
} from '../../functions/auth/session-rules';

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

describe('a password change or a disable', () => {
  const changedAt = '2026-11-29T10:00:00.000Z';
  it('ends a session that started with the credentials before it, whatever the two clocks said', () => {
    // The login ran on a clock two seconds ahead of the change's: by time it would look newer.
    const ahead = { created_at: '2026-11-29T10:00:01.500Z', credentials_at: null };
    expect(predatesCredentials(ahead, { credentials_changed_at: changedAt })).toBe(true);
    const earlierChange = { created_at: '2026-11-29T10:00:01.500Z', credentials_at: '2026-01-01T00:00:00.000Z' };
    expect(predatesCredentials(earlierChange, { credentials_changed_at: changedAt })).toBe(true);
  });

  it('leaves a session started with the current credentials alone, even one dated before the change', () => {
    const behind = { created_at: '2026-11-29T09:59:59.000Z', credentials_at: changedAt };
    expect(predatesCredentials(behind, { credentials_changed_at: changedAt })).toBe(false);
    expect(predatesCredentials({ created_at: changedAt, credentials_at: null }, {})).toBe(false);
  });

  it('compares times for sessions stored before they carried the credentials', () => {
    expect(predatesCredentials({ created_at: '2026-11-29T09:00:00.000Z' }, { credentials_changed_at: changedAt })).toBe(
      true,
    );
    expect(predatesCredentials({ created_at: '2026-11-29T11:00:00.000Z' }, { credentials_changed_at: changedAt })).toBe(
      false,
    );
  });
});
