import { provisionTenant } from '../functions/tenants/service';
import { isValidTimezone } from '../functions/platform/validation';

export interface DemoCredentials {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
}

export const DEMO_ADMIN = { email: 'admin@demo.example', password: 'demo-admin-password', name: 'Demo Admin' };

/** The machine's time zone (`TZ`, else the system's), which the demo tenant takes; UTC when it has none. */
export function machineTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimezone(zone) ? zone : 'UTC';
}

/**
 * The demo tenant, created through the same provisioning code as POST /platform/tenants, in the machine's
 * time zone: the person trying it sees their own clock in the dashboard and in AI suggestions.
 */
export async function seedDemoTenant(): Promise<DemoCredentials> {
  const created = await provisionTenant(
    { name: 'Demo Company', plan: 'pro', admin: DEMO_ADMIN, timezone: machineTimeZone() },
    new Date(),
  );
  return {
    tenantId: created.tenant.id,
    apiKey: created.apiKey.key,
    adminEmail: DEMO_ADMIN.email,
    adminPassword: DEMO_ADMIN.password,
  };
}
