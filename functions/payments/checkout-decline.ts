import { conflict } from '../platform/errors';
import { httpHandler } from '../http/handler';
import { checkoutPage, checkoutPayment } from './checkout-page';
import { CheckoutQuery } from './schemas';
import { settle } from './service';

/** The sandbox's Decline button: the payment fails, as a declined card would. */
export const handler = httpHandler(
  'payments-checkout-decline',
  { query: CheckoutQuery },
  async ({ params, query, now }) => {
    const payment = await checkoutPayment(params, query.sig);
    if (payment.provider !== 'sandbox')
      throw conflict('not_sandbox', 'This payment is taken by its provider\u2019s checkout.');
    const settled = await settle(payment.tenant_id, payment.id, { kind: 'failed' }, now);
    return checkoutPage(settled.payment, query.sig);
  },
);
