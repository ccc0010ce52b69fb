import { httpHandler } from '../http/handler';
import { sandboxCheckout } from './checkout-outcome';
import { CheckoutQuery } from './schemas';

/** The sandbox's Decline button: the payment fails, as a declined card would. */
export const handler = httpHandler('payments-checkout-decline', { query: CheckoutQuery }, ({ params, query, now }) =>
  sandboxCheckout(params, query.sig, 'failed', now),
);
