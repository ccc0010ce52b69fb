import { httpHandler, tenantPrincipal } from '../http/handler';
import { listChannels } from './store';

/** The sandbox is always there; WhatsApp numbers appear once connected. */
export const handler = httpHandler('channels-list', {}, async ({ principal }) => {
  const numbers = await listChannels(tenantPrincipal(principal).tenant.id);
  return { status: 200, body: { data: [{ channel: 'sandbox' }, ...numbers] } };
});
