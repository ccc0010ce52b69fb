import { httpHandler } from '../http/handler';
import { graphVersion } from './whatsapp';

/**
 * What a browser needs to run Meta's Embedded Signup with the platform's app (WHATSAPP_APP_ID and its
 * signup configuration, WHATSAPP_SIGNUP_CONFIG_ID); `available: false` when the deployment has none.
 */
export const handler = httpHandler('channels-whatsapp-signup-config', {}, async () => {
  const appId = process.env.WHATSAPP_APP_ID || null;
  const configId = process.env.WHATSAPP_SIGNUP_CONFIG_ID || null;
  return {
    status: 200,
    body: {
      available: !!(appId && configId),
      app_id: appId && configId ? appId : null,
      config_id: appId && configId ? configId : null,
      graph_version: graphVersion(),
    },
  };
});
