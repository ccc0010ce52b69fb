import { changedTenant, hourlyLimit, planLimitProblem, type Tenant } from '../../functions/tenants/tenant';
import { fixedWindow } from '../../functions/platform/counters';
import { rateLimitHeaders } from '../../functions/http/rate-limit';
import { roleAllows } from '../../functions/auth/principal';

describe('plans and limits', () => {
  it('maps plans to hourly limits', () => {
    expect(hourlyLimit({ plan: 'free', rate_limit_per_hour: null })).toBe(100);
    expect(hourlyLimit({ plan: 'starter', rate_limit_per_hour: null })).toBe(1000);
    expect(hourlyLimit({ plan: 'pro', rate_limit_per_hour: null })).toBe(1000);
    expect(hourlyLimit({ plan: 'enterprise', rate_limit_per_hour: 25000 })).toBe(25000);
  });

  it('requires a custom limit on enterprise and refuses one elsewhere', () => {
    expect(planLimitProblem('enterprise', undefined)).toMatch(/needs/);
    expect(planLimitProblem('free', 500)).toMatch(/only/);
    expect(planLimitProblem('enterprise', 500)).toBeNull();
    expect(planLimitProblem('pro', null)).toBeNull();
  });

  it('computes the hour window and seconds to reset', () => {
    const w = fixedWindow(new Date('2026-05-05T10:59:30Z'), 3600);
    expect(new Date(w.start * 1000).toISOString()).toBe('2026-05-05T10:00:00.000Z');
    expect(w.secondsLeft).toBe(30);
    expect(w.resetAt - w.start).toBe(3600);
  });

  it('formats the IETF and X- rate-limit headers', () => {
    const h = rateLimitHeaders({ limit: 100, remaining: 7, resetAt: 1_800_000_000, secondsLeft: 42 });
    expect(h['RateLimit-Policy']).toBe('"hourly";q=100;w=3600');
    expect(h.RateLimit).toBe('"hourly";r=7;t=42');
    expect(h['X-RateLimit-Remaining']).toBe('7');
    expect(h['X-RateLimit-Reset']).toBe('1800000000');
  });

  it('lets admins do everything and agents only what needs no role', () => {
    expect(roleAllows('admin', 'admin')).toBe(true);
    expect(roleAllows('agent', 'admin')).toBe(false);
    expect(roleAllows('agent', undefined)).toBe(true);
  });
});

describe('changedTenant', () => {
  const current: Tenant = {
    id: 't1',
    name: 'Acme',
    plan: 'enterprise',
    rate_limit_per_hour: 50_000,
    status: 'active',
    timezone: 'UTC',
    default_language: 'en',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 3,
  };

  it('sets the given fields, removes nulls, leaves undefined alone, and moves to the next version', () => {
    const next = changedTenant(
      current,
      { plan: 'pro', rate_limit_per_hour: null, name: undefined, status: 'suspended' },
      '2026-02-01T00:00:00.000Z',
    );
    expect(next).toEqual({
      id: 't1',
      name: 'Acme',
      plan: 'pro',
      status: 'suspended',
      timezone: 'UTC',
      default_language: 'en',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
      version: 4,
    });
    expect(current.rate_limit_per_hour).toBe(50_000);
  });
});
