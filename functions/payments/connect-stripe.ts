import { httpHandler, tenantPrincipal } from '../http/handler';
import { ConnectStripeBody } from './schemas';
import { connectStripe } from './stripe-connect';

/** The key is checked with Stripe, then both secrets are sealed; neither is ever returned. */
export const handler = httpHandler(
  'payments-connect-stripe',
  { body: ConnectStripeBody },
  async ({ body, principal, now }) => ({
    status: 200,
    body: await connectStripe(tenantPrincipal(principal).tenant.id, body, now),
  }),
);
