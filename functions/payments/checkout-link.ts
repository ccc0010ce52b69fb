import { createHmac, timingSafeEqual } from 'node:crypto';
import { signingSecret } from '../platform/secrets';

/** The signature in a sandbox checkout link: only the API made the link, and it names one tenant's payment. */
export async function checkoutSignature(tenantId: string, paymentId: string): Promise<string> {
  const key = createHmac('sha256', await signingSecret())
    .update('payment-checkout-v1')
    .digest();
  return createHmac('sha256', key).update(`${tenantId}\n${paymentId}`).digest('base64url').slice(0, 32);
}

export async function validCheckoutSignature(tenantId: string, paymentId: string, sig: string | undefined) {
  const expected = Buffer.from(await checkoutSignature(tenantId, paymentId));
  const given = Buffer.from(sig ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The page a payment's customer opens: the sandbox checkout, and the page Stripe returns them to. */
export const checkoutPageUrl = async (baseUrl: string, tenantId: string, paymentId: string) =>
  `${baseUrl}/api/v1/payments/checkout/${tenantId}/${paymentId}?sig=${await checkoutSignature(tenantId, paymentId)}`;
