import { httpHandler } from '../http/handler';
import { sandboxCheckout } from './checkout-outcome';
import { CheckoutQuery } from './schemas';

/** The sandbox's Pay button: the same outcome a provider's success event brings. */
export const handler = httpHandler('payments-checkout-pay', { query: CheckoutQuery }, ({ params, query, now }) =>
  sandboxCheckout(params, query.sig, 'paid', now),
);
