// Public: the tenant model (pure): plans and limits.
/** Tenants, plans and hourly limits: pure rules, no AWS imports. */
import type { Language } from '../ai/taxonomy';

export const PLANS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export type TenantStatus = 'active' | 'suspended';

/** Requests per hour for each plan; enterprise tenants carry their own limit. */
export const PLAN_HOURLY_LIMITS: Record<Exclude<Plan, 'enterprise'>, number> = {
  free: 100,
  starter: 1000,
  pro: 1000,
};

export interface Tenant {
  id: string;
  name: string;
  plan: Plan;
  rate_limit_per_hour: number | null;
  status: TenantStatus;
  /** IANA zone in which the AI reads dates and times in customer messages ("tomorrow at 3"). */
  timezone: string;
  /** The language of customer messages too short to tell (ISO 639-1), one the AI speaks. */
  default_language: Language;
  created_at: string;
  updated_at: string;
  version: number;
}

/** What a change of a tenant may set: undefined leaves a field alone, null removes it. */
export type TenantChanges = Partial<
  Pick<Tenant, 'name' | 'plan' | 'rate_limit_per_hour' | 'status' | 'timezone' | 'default_language'>
>;

/** The tenant after `changes`, as the store's versioned update leaves it (one version more). */
export function changedTenant(current: Tenant, changes: TenantChanges, now: string): Tenant {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return { ...next, updated_at: now, version: current.version + 1 } as Tenant;
}

export function hourlyLimit(tenant: Pick<Tenant, 'plan' | 'rate_limit_per_hour'>): number {
  if (tenant.plan === 'enterprise') return tenant.rate_limit_per_hour ?? PLAN_HOURLY_LIMITS.pro;
  return PLAN_HOURLY_LIMITS[tenant.plan];
}

/** A custom limit only makes sense on enterprise, and enterprise needs one. Returns a problem or null. */
export function planLimitProblem(plan: Plan, rateLimitPerHour: number | null | undefined): string | null {
  if (plan === 'enterprise' && rateLimitPerHour == null) return 'The enterprise plan needs rate_limit_per_hour.';
  if (plan !== 'enterprise' && rateLimitPerHour != null)
    return 'rate_limit_per_hour can only be set on the enterprise plan.';
  return null;
}
