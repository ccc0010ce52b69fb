import { conflict } from '../platform/errors';
import { checkoutPage, checkoutPayment } from './checkout-page';
import { settle } from './service';

/**
 * A button of the sandbox's checkout page (Pay or Decline): the signed link's payment settled with the
 * outcome a provider's event would bring, answered with the page as it now stands.
 */
export async function sandboxCheckout(
  params: Record<string, string>,
  sig: string,
  outcome: 'paid' | 'failed',
  now: Date,
): Promise<ReturnType<typeof checkoutPage>> {
  const payment = await checkoutPayment(params, sig);
  if (payment.provider !== 'sandbox')
    throw conflict('not_sandbox', 'This payment is taken by its provider\u2019s checkout.');
  const settled = await settle(payment.tenant_id, payment.id, { kind: outcome }, now);
  return checkoutPage(settled.payment, sig);
}
