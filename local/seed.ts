import { provisionTenant } from '../functions/tenants/service';

export interface DemoCredentials {
  tenantId: string;
  apiKey: string;
  adminEmail: string;
  adminPassword: string;
}

export const DEMO_ADMIN = { email: 'admin@demo.example', password: 'demo-admin-password', name: 'Demo Admin' };

/** The demo tenant, created through the same provisioning code as POST /platform/tenants. */
export async function seedDemoTenant(): Promise<DemoCredentials> {
  const created = await provisionTenant({ name: 'Demo Company', plan: 'pro', admin: DEMO_ADMIN }, new Date());
  return {
    tenantId: created.tenant.id,
    apiKey: created.apiKey.key,
    adminEmail: DEMO_ADMIN.email,
    adminPassword: DEMO_ADMIN.password,
  };
}
