import { httpHandler } from '../http/handler';
import { checkoutPage, checkoutPayment } from './checkout-page';
import { CheckoutQuery } from './schemas';

/** The page a payment link opens (and where Stripe returns the customer). */
export const handler = httpHandler('payments-checkout-page', { query: CheckoutQuery }, async ({ params, query }) =>
  checkoutPage(await checkoutPayment(params, query.sig), query.sig),
);
