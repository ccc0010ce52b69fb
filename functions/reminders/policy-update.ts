import { httpHandler, tenantPrincipal } from '../http/handler';
import { ReminderPolicyPatch } from './schemas';
import { savePolicy } from './service';

/** Changes the tenant's booking reminder policy; bookings changed from now on follow it. */
export const handler = httpHandler(
  'reminder-policy-update',
  { body: ReminderPolicyPatch },
  async ({ body, principal, now }) => ({
    status: 200,
    body: await savePolicy(tenantPrincipal(principal).tenant.id, body, now),
  }),
);
