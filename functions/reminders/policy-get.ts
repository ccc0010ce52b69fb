import { httpHandler, tenantPrincipal } from '../http/handler';
import { getPolicy } from './store';

/** The tenant's booking reminder policy (disabled until set). */
export const handler = httpHandler('reminder-policy-get', {}, async ({ principal }) => ({
  status: 200,
  body: await getPolicy(tenantPrincipal(principal).tenant.id),
}));
