// Public: the tenant as the API shows it, for /auth/me.
import { hourlyLimit, type Tenant } from './tenant';

/** The tenant as the API shows it: the effective hourly limit, whatever the plan. */
export const tenantView = (tenant: Tenant) => ({ ...tenant, rate_limit_per_hour: hourlyLimit(tenant) });
