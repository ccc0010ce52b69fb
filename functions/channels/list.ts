import { httpHandler, tenantPrincipal } from '../http/handler';
import { listChannels } from './store';
import { graphVersion } from './whatsapp';

/**
 * Meta's Embedded Signup as the dashboard runs it: the platform app and its signup configuration
 * (WHATSAPP_APP_ID, WHATSAPP_SIGNUP_CONFIG_ID); null when the deployment has none.
 */
const embeddedSignup = () => {
  const appId = process.env.WHATSAPP_APP_ID;
  const configId = process.env.WHATSAPP_SIGNUP_CONFIG_ID;
  return appId && configId ? { app_id: appId, config_id: configId, graph_version: graphVersion() } : null;
};

export const handler = httpHandler('channels-list', {}, async ({ principal }) => {
  const whatsapp = await listChannels(tenantPrincipal(principal).tenant.id);
  return {
    status: 200,
    body: { data: [{ channel: 'sandbox' }, ...whatsapp], embedded_signup: embeddedSignup() },
  };
});
