import { httpHandler, tenantPrincipal } from '../http/handler';
import { readSettings } from './settings-service';

export const handler = httpHandler('payments-settings-get', {}, async ({ principal }) => ({
  status: 200,
  body: await readSettings(tenantPrincipal(principal).tenant.id),
}));
