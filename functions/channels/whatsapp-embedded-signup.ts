import { httpHandler, tenantPrincipal } from '../http/handler';
import { EmbeddedSignupBody } from './schemas';
import { connectByEmbeddedSignup } from './service';

/** Embedded Signup's result: the OAuth code, account and number from Meta's signup in the dashboard. */
export const handler = httpHandler(
  'channels-whatsapp-embedded-signup',
  { body: EmbeddedSignupBody },
  async ({ body, principal, now }) => {
    const channel = await connectByEmbeddedSignup(tenantPrincipal(principal).tenant.id, body, now);
    return { status: 201, body: { ...channel, webhook_path: '/api/v1/channels/whatsapp/webhook' } };
  },
);
