import { conflict } from '../platform/errors';
import { httpHandler } from '../http/handler';
import { checkoutPage, checkoutPayment } from './checkout-page';
import { CheckoutQuery } from './schemas';
import { settle } from './service';

/** The sandbox's Pay button: the same outcome a provider's success event brings. */
export const handler = httpHandler(
  'payments-checkout-pay',
  { query: CheckoutQuery },
  async ({ params, query, now }) => {
    const payment = await checkoutPayment(params, query.sig);
    if (payment.provider !== 'sandbox')
      throw conflict('not_sandbox', 'This payment is taken by its provider\u2019s checkout.');
    const settled = await settle(payment.tenant_id, payment.id, { kind: 'paid' }, now);
    return checkoutPage(settled.payment, query.sig);
  },
);
