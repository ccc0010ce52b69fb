import type Stripe from 'stripe';
import { DomainError } from '../platform/domain-error';
import { checkoutPageUrl } from './checkout-link';
import type { Payment, Refund } from './payment';

/**
 * The payment providers behind one interface: the sandbox (our own checkout page, offline) and Stripe
 * (Checkout Sessions on the tenant's own account, with the official `stripe` library). Every call is
 * idempotent on our ids, so a retry after a crash or a timeout never charges or refunds twice.
 */
export interface LinkRequest {
  payment: Payment;
  /** The API's public base URL, for the sandbox page and Stripe's success and cancel pages. */
  baseUrl: string;
  productName: string;
}
export interface CreatedLink {
  link: string;
  provider_ids: Payment['provider_ids'];
}
/** Where a link stands at the provider when we are about to expire it. */
export type ExpiryOutcome = { paid: false } | { paid: true; payment_intent_id?: string };

export interface PaymentProvider {
  createLink(request: LinkRequest): Promise<CreatedLink>;
  /** Closes the link at the provider; `paid: true` when the customer paid first (the payment then stands). */
  expireLink(payment: Payment): Promise<ExpiryOutcome>;
  refund(payment: Payment, refund: Refund): Promise<{ provider_refund_id: string }>;
}

// --- Sandbox -----------------------------------------------------------------------------------------

export const sandboxProvider: PaymentProvider = {
  async createLink({ payment, baseUrl }) {
    return { link: await checkoutPageUrl(baseUrl, payment.tenant_id, payment.id), provider_ids: {} };
  },
  async expireLink() {
    // The sandbox's only record is ours: a Pay that won the race has already moved the payment on.
    return { paid: false };
  },
  async refund(_payment, refund) {
    return { provider_refund_id: `sandbox_${refund.id}` };
  },
};

// --- Stripe ------------------------------------------------------------------------------------------

/**
 * The `stripe` library, loaded on first use: the sandbox path and the handlers that never reach Stripe do not
 * pay for evaluating it on a cold start.
 */
const stripeLibrary = async () => (await import('stripe')).default;

/** A Stripe client for one key; STRIPE_API_URL points it elsewhere (the tests' fake Stripe server). */
async function stripeClient(secretKey: string): Promise<Stripe> {
  const Stripe = await stripeLibrary();
  const config: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, timeout: 10_000 };
  const base = process.env.STRIPE_API_URL;
  if (base) {
    const url = new URL(base);
    Object.assign(config, {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol.replace(':', '') as 'http' | 'https',
    });
  }
  return new Stripe(secretKey, config);
}

/** Stripe's errors the tenant can fix, as problems; anything else (network, 5xx after retries) is thrown on. */
async function stripeProblem(error: unknown, doing: string): Promise<never> {
  const Stripe = await stripeLibrary();
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
    throw DomainError.invalid(
      'stripe_credentials_invalid',
      `Stripe refused the connected key while ${doing} (${(error as Error).message}). Reconnect Stripe with a key that has write access to Checkout Sessions and Refunds.`,
    );
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    throw DomainError.invalid('stripe_request_refused', `Stripe refused ${doing}: ${error.message}`);
  throw error;
}

/** Checks a restricted key with a real call (listing Checkout Sessions, which creating them needs too). */
export async function validateStripeKey(secretKey: string): Promise<{ livemode: boolean }> {
  const Stripe = await stripeLibrary();
  try {
    await (await stripeClient(secretKey)).checkout.sessions.list({ limit: 1 });
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && !(error instanceof Stripe.errors.StripeConnectionError))
      throw DomainError.invalidField(
        'stripe_credentials_invalid',
        'secret_key',
        `Stripe refused this key: ${error.message}`,
      );
    throw error;
  }
  return { livemode: /^(rk|sk)_live_/.test(secretKey) };
}

export async function stripeProvider(secretKey: string): Promise<PaymentProvider> {
  const Stripe = await stripeLibrary();
  const stripe = await stripeClient(secretKey);
  const ids = (p: Payment) => ({
    payment_id: p.id,
    tenant_id: p.tenant_id,
    ...(p.booking_id ? { booking_id: p.booking_id } : {}),
  });
  return {
    async createLink({ payment, baseUrl, productName }) {
      const page = await checkoutPageUrl(baseUrl, payment.tenant_id, payment.id);
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: payment.currency.toLowerCase(),
                  unit_amount: payment.amount,
                  product_data: { name: productName },
                },
              },
            ],
            expires_at: Math.floor(Date.parse(payment.expires_at) / 1000),
            client_reference_id: payment.id,
            metadata: ids(payment),
            payment_intent_data: { metadata: ids(payment) },
            success_url: page,
            cancel_url: page,
          },
          // A retry of the same payment's link (a crash, a retried transaction) gets the same session.
          { idempotencyKey: `checkout-${payment.id}` },
        );
        if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
        return { link: session.url, provider_ids: { checkout_session_id: session.id } };
      } catch (error) {
        return await stripeProblem(error, 'creating the Checkout Session');
      }
    },
    async expireLink(payment) {
      const id = payment.provider_ids.checkout_session_id;
      if (!id) return { paid: false };
      try {
        await stripe.checkout.sessions.expire(id);
        return { paid: false };
      } catch (error) {
        // Only an open session can be expired: it may have completed (paid) or expired at Stripe already.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        const session = await stripe.checkout.sessions.retrieve(id);
        if (session.status === 'complete' && session.payment_status === 'paid') {
          const intent = session.payment_intent;
          return { paid: true, payment_intent_id: typeof intent === 'string' ? intent : intent?.id };
        }
        return { paid: false };
      }
    },
    async refund(payment, refund) {
      const intent = payment.provider_ids.payment_intent_id;
      if (!intent) throw new Error(`payment ${payment.id} has no PaymentIntent to refund`);
      try {
        const made = await stripe.refunds.create(
          { payment_intent: intent, amount: refund.amount, metadata: { payment_id: payment.id, refund_id: refund.id } },
          { idempotencyKey: `refund-${refund.id}` },
        );
        return { provider_refund_id: made.id };
      } catch (error) {
        return await stripeProblem(error, 'the refund');
      }
    },
  };
}

/** Verifies a Stripe event on its raw body with the tenant's signing secret; throws when it does not verify. */
export async function verifyStripeEvent(
  rawBody: string,
  signature: string | undefined,
  webhookSecret: string,
): Promise<Stripe.Event> {
  if (!signature) throw new Error('No Stripe-Signature header');
  const Stripe = await stripeLibrary();
  return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
}
