import type Stripe from 'stripe';
import { isId } from '../platform/ids';
import { logger } from '../platform/observability';
import { reconcileProviderRefund, settle, type Outcome } from './service';
import { getPayment } from './store';

export type StripeEventOutcome = 'applied' | 'duplicate' | 'unchanged' | 'ignored';

/**
 * One verified Stripe event of one tenant, applied to the payment its metadata names (set on the Checkout
 * Session and its PaymentIntent when the link was made). An event naming another tenant, or no payment of
 * this one, is ignored: it changes nothing, and Stripe is told it arrived so it does not retry it for days.
 * Order does not matter: a success after our expiry is refunded (settle's late payment), a refund before
 * its success records the success first.
 */
export async function applyStripeEvent(tenantId: string, event: Stripe.Event, now: Date): Promise<StripeEventOutcome> {
  const object = event.data.object as { metadata?: Record<string, string> | null };
  const paymentId = object.metadata?.payment_id;
  if (!paymentId || !isId('pay', paymentId) || object.metadata?.tenant_id !== tenantId) {
    logger.info('Stripe event for no payment of this tenant ignored', { stripe_event_type: event.type });
    return 'ignored';
  }
  if (!(await getPayment(tenantId, paymentId))) return 'ignored';
  const intentOf = (value: unknown) =>
    typeof value === 'string' ? value : ((value as { id?: string } | null)?.id ?? undefined);
  let outcome: Outcome | undefined;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A completed session whose payment is still processing (bank debits) is settled by its async event.
      if (session.payment_status !== 'paid') return 'unchanged';
      outcome = { kind: 'paid', payment_intent_id: intentOf(session.payment_intent), event_id: event.id };
      break;
    }
    case 'checkout.session.async_payment_failed':
      outcome = { kind: 'failed', event_id: event.id };
      break;
    case 'checkout.session.expired':
      outcome = { kind: 'expired', event_id: event.id };
      break;
    case 'charge.refunded': {
      const charge = event.data.object;
      const result = await reconcileProviderRefund(
        tenantId,
        paymentId,
        charge.amount_refunded,
        intentOf(charge.payment_intent),
        event.id,
        now,
      );
      return result.outcome;
    }
    default:
      return 'ignored';
  }
  return (await settle(tenantId, paymentId, outcome, now)).outcome;
}
