// Public: payment links and refunds, for bookings.
import { DomainError } from '../platform/domain-error';
import { newId } from '../platform/ids';
import { retryOnConflict } from '../platform/retry';
import type { TransactItem } from '../platform/db';
import { logger } from '../platform/observability';
import type { EventEnvelope, EventType } from '../events/catalog';
import { eventPut, newEvent } from '../events/store';
import { withStatus, type Booking, type BookingActor } from '../bookings/booking';
import { BookingChanged, getBooking, saveBooking } from '../bookings/store';
import { getConversation } from '../conversations/store';
import { sendText } from '../conversations/service';
import type { Sender } from '../auth/principal';
import {
  amountProblem,
  holdProblem,
  isPaid,
  linkMessage,
  pendingRefunds,
  policyRefund,
  refundable,
  refundProblem,
  requirementFor,
  statusAfterRefunds,
  type Payment,
  type PaymentPurpose,
  type PaymentRequirement,
  type PaymentSettings,
  type PaymentStatus,
  type Refund,
} from './payment';
import { sandboxProvider, stripeProvider, type PaymentProvider } from './providers';
import {
  DuplicateProviderEvent,
  PaymentChanged,
  getPayment,
  getSettings,
  getStripeSecrets,
  paymentWrite,
  providerEventApplied,
  providerEventWrite,
  savePayment,
} from './store';

const SYSTEM: BookingActor = { type: 'system', id: 'payments' };

const STATUS_EVENT: Record<PaymentStatus, EventType | undefined> = {
  pending: 'payment.created',
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  expired: 'payment.expired',
  canceled: 'payment.canceled',
  refunded: 'payment.refunded',
  partially_refunded: 'payment.refunded',
};

/** A payment event: the payment, its booking's id and what changed (plus what else the type says). */
const paymentEvent = (type: EventType, p: Payment, now: Date, extra: Record<string, unknown> = {}) =>
  newEvent(p.tenant_id, type, { payment: p, booking_id: p.booking_id, ...extra }, now);

const statusEvent = (before: Payment, after: Payment, now: Date, extra: Record<string, unknown> = {}) =>
  paymentEvent(STATUS_EVENT[after.status] ?? 'payment.created', after, now, {
    changes: { status: { from: before.status, to: after.status } },
    ...extra,
  });

async function providerOf(tenantId: string, provider: Payment['provider']): Promise<PaymentProvider> {
  if (provider === 'sandbox') return sandboxProvider;
  const secrets = await getStripeSecrets(tenantId);
  if (!secrets)
    throw DomainError.invalid(
      'payment_provider_not_connected',
      'Stripe is not connected: connect it in the payment settings, or use the sandbox.',
    );
  return await stripeProvider(secrets.secret_key);
}

/** Optimistic writes lose to concurrent ones (a payment and its expiry, two refunds): read again and retry. */
const retrying = <T>(fn: () => Promise<T>) =>
  retryOnConflict(fn, {
    attempts: 8,
    retryable: (e) => e instanceof PaymentChanged || e instanceof BookingChanged,
    exhausted: () => DomainError.conflict('concurrent_update', 'The payment is changing too fast; retry.'),
  });

const invalid = (problem: { code: string; path: string; message: string }) =>
  DomainError.invalidField(problem.code, problem.path, problem.message);

export interface NewPaymentInput {
  purpose: PaymentPurpose;
  amount: number;
  currency: string;
  description?: string;
  expires_in_minutes?: number;
}

/** A new payment with its link made at the provider (idempotent on the payment's id), not yet saved. */
async function draftPayment(
  tenantId: string,
  id: string,
  input: NewPaymentInput,
  owner: { booking_id: string | null; conversation_id: string | null; customer_id: string | null },
  settings: PaymentSettings,
  baseUrl: string,
  productName: string,
  now: Date,
): Promise<Payment> {
  const problem = amountProblem(input.amount, input.currency);
  if (problem) throw invalid(problem);
  const minutes = input.expires_in_minutes ?? settings.hold_minutes;
  const hold = holdProblem(minutes, settings.provider);
  if (hold) throw DomainError.invalidField('invalid_hold', 'expires_in_minutes', hold);
  const at = now.toISOString();
  const payment: Payment = {
    id,
    tenant_id: tenantId,
    ...owner,
    purpose: input.purpose,
    description: input.description ?? null,
    amount: input.amount,
    currency: input.currency,
    status: 'pending',
    status_reason: null,
    amount_refunded: 0,
    refunds: [],
    link: '',
    expires_at: new Date(now.getTime() + minutes * 60_000).toISOString(),
    provider: settings.provider,
    provider_ids: {},
    paid_at: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const provider = await providerOf(tenantId, settings.provider);
  const made = await provider.createLink({ payment, baseUrl, productName });
  return { ...payment, link: made.link, provider_ids: made.provider_ids };
}

export interface CreatePaymentInput extends NewPaymentInput {
  booking_id?: string;
  conversation_id?: string;
  send?: boolean;
}

/**
 * A payment link for a booking and/or a conversation (its customer's), saved with `payment.created`; sent
 * into the conversation as a message when asked. A link made for a booking does not confirm it: only the
 * payment the booking was created to wait for does.
 */
export async function createPayment(
  tenantId: string,
  input: CreatePaymentInput,
  sender: Sender,
  baseUrl: string,
  now: Date,
): Promise<{ payment: Payment; message_id: string | null }> {
  if (!input.booking_id && !input.conversation_id)
    throw DomainError.invalid(
      'payment_owner_required',
      'Name the `booking_id` or the `conversation_id` the payment is for.',
      [{ path: 'booking_id', message: 'a booking or a conversation is required' }],
    );
  const [booking, named] = await Promise.all([
    input.booking_id ? getBooking(tenantId, input.booking_id) : undefined,
    input.conversation_id ? getConversation(tenantId, input.conversation_id) : undefined,
  ]);
  if (input.booking_id && !booking)
    throw DomainError.invalidField('unknown_booking', 'booking_id', 'No booking has this id.');
  if (input.conversation_id && !named)
    throw DomainError.invalidField('unknown_conversation', 'conversation_id', 'No conversation has this id.');
  if (booking && named && named.customer.id !== booking.customer.id)
    throw DomainError.invalidField(
      'conversation_customer_mismatch',
      'conversation_id',
      "The conversation is with another customer than the booking's.",
    );
  const conversationId = input.conversation_id ?? booking?.conversation_id ?? null;
  if (input.send && !conversationId)
    throw DomainError.invalidField(
      'payment_without_conversation',
      'send',
      'The payment has no conversation to send its link into.',
    );
  const settings = await getSettings(tenantId);
  const payment = await draftPayment(
    tenantId,
    newId('pay'),
    input,
    {
      booking_id: booking?.id ?? null,
      conversation_id: conversationId,
      customer_id: booking?.customer.id ?? named?.customer.id ?? null,
    },
    settings,
    baseUrl,
    input.description ?? booking?.service ?? 'Payment',
    now,
  );
  await savePayment(undefined, payment, [eventPut(paymentEvent('payment.created', payment, now))]);
  const message = input.send ? await sendLink(tenantId, payment.id, sender, now) : undefined;
  return { payment, message_id: message?.id ?? null };
}

/** Sends (or sends again) an open link into the payment's conversation, as the caller's message. */
export async function sendLink(tenantId: string, paymentId: string, sender: Sender, now: Date) {
  const payment = await getPayment(tenantId, paymentId);
  if (!payment) throw DomainError.notFound('The payment');
  if (payment.status !== 'pending')
    throw DomainError.conflict('payment_not_pending', `A ${payment.status} payment has no open link to send.`);
  if (!payment.conversation_id)
    throw DomainError.invalid('payment_without_conversation', 'The payment has no conversation to send its link into.');
  return sendText(tenantId, payment.conversation_id, linkMessage(payment), sender, now);
}

/** Withdraws an open link (`payment.canceled`); a booking waiting for it is cancelled with it. */
export async function cancelPayment(tenantId: string, paymentId: string, now: Date): Promise<Payment> {
  const result = await settle(tenantId, paymentId, { kind: 'canceled' }, now);
  if (result.payment.status !== 'canceled')
    throw DomainError.conflict('payment_not_pending', `A ${result.payment.status} payment has no open link to cancel.`);
  return result.payment;
}

/** What a provider (or the sweeper, or the sandbox page) says happened to a link. */
export type Outcome =
  | { kind: 'paid'; payment_intent_id?: string; event_id?: string }
  | { kind: 'failed'; event_id?: string }
  | { kind: 'expired'; event_id?: string }
  | { kind: 'canceled' };

export interface Settled {
  payment: Payment;
  outcome: 'applied' | 'duplicate' | 'unchanged';
}

/**
 * Applies an outcome to a payment and the booking waiting for it, in one transaction with their events (and
 * the provider event's record, so a replay changes nothing):
 *   paid      pending → succeeded, the booking confirmed; after an expiry, cancellation or decline the money
 *             is taken and refunded in full at once (`late_payment`): never a paid, cancelled booking.
 *   failed    pending → failed, the booking cancelled (`payment_failed`), its slot free.
 *   expired   pending → expired, the booking cancelled (`payment_expired`), its slot free.
 *   canceled  pending → canceled, the booking cancelled (`payment_canceled`).
 * Anything else changes nothing (a replay, an outcome that lost the race).
 */
export async function settle(tenantId: string, paymentId: string, outcome: Outcome, now: Date): Promise<Settled> {
  const eventId = 'event_id' in outcome ? outcome.event_id : undefined;
  const result = await retrying(async (): Promise<Settled> => {
    if (eventId && (await providerEventApplied(tenantId, eventId))) {
      const current = await getPayment(tenantId, paymentId);
      if (!current) throw DomainError.notFound('The payment');
      return { payment: current, outcome: 'duplicate' };
    }
    const before = await getPayment(tenantId, paymentId);
    if (!before) throw DomainError.notFound('The payment');
    const after = nextState(before, outcome, now);
    if (!after) return { payment: before, outcome: 'unchanged' };
    const late = after.status_reason === 'late_payment';
    const events: EventEnvelope[] = [statusEvent(before, after, now, late ? { late_payment: true } : {})];
    const marker = eventId ? [providerEventWrite(tenantId, eventId, now)] : [];
    const booking = after.booking_id ? await getBooking(tenantId, after.booking_id) : undefined;
    const bookingChange = booking && !late ? bookingAfter(booking, after, now) : undefined;
    if (!bookingChange || !booking) {
      await savePayment(before, after, events.map(eventPut), marker[0]);
      return { payment: after, outcome: 'applied' };
    }
    events.push(
      newEvent(tenantId, bookingChange.type, { booking: bookingChange.after, changes: bookingChange.changes }, now),
    );
    await saveBooking(
      booking,
      bookingChange.after,
      [paymentWrite(before, after), ...marker, ...events.map(eventPut)],
      now,
    );
    return { payment: after, outcome: 'applied' };
  }).catch((error: unknown) => {
    if (error instanceof DuplicateProviderEvent) return undefined;
    throw error;
  });
  if (!result) {
    const current = await getPayment(tenantId, paymentId);
    return { payment: current as Payment, outcome: 'duplicate' };
  }
  if (result.outcome === 'applied' && pendingRefunds(result.payment).length > 0)
    return { payment: await executeRefunds(tenantId, paymentId, now), outcome: 'applied' };
  return result;
}

/** The payment after an outcome, or undefined when it changes nothing. */
function nextState(p: Payment, outcome: Outcome, now: Date): Payment | undefined {
  const at = now.toISOString();
  const base = { ...p, updated_at: at, version: p.version + 1 };
  if (outcome.kind === 'paid') {
    if (isPaid(p.status)) return undefined;
    const ids = {
      ...p.provider_ids,
      ...(outcome.payment_intent_id ? { payment_intent_id: outcome.payment_intent_id } : {}),
    };
    if (p.status === 'pending') return { ...base, status: 'succeeded', paid_at: at, provider_ids: ids };
    // Paid after the link was closed: taken, and given back in full.
    const refund: Refund = {
      id: newId('rfd'),
      amount: p.amount,
      status: 'pending',
      reason: 'late_payment',
      provider_refund_id: null,
      created_at: at,
    };
    return {
      ...base,
      status: 'succeeded',
      status_reason: 'late_payment',
      paid_at: at,
      provider_ids: ids,
      refunds: [refund],
    };
  }
  if (p.status !== 'pending') return undefined;
  const reason = outcome.kind === 'failed' ? 'declined' : outcome.kind === 'canceled' ? 'canceled' : null;
  return { ...base, status: outcome.kind, status_reason: reason };
}

/** What happens to the booking that waits for this payment, if one does. */
function bookingAfter(b: Booking, p: Payment, now: Date) {
  if (b.payment?.id !== p.id || b.status !== 'pending_payment') return undefined;
  if (p.status === 'succeeded') return withStatus(b, 'confirmed', null, SYSTEM, now);
  const reasons: Partial<Record<PaymentStatus, string>> = {
    expired: 'payment_expired',
    failed: 'payment_failed',
    canceled: 'payment_canceled',
  };
  const reason = reasons[p.status];
  return reason ? withStatus(b, 'cancelled', reason, SYSTEM, now) : undefined;
}

/**
 * Sends the payment's reserved refunds to the provider (each idempotent on its id) and records each one the
 * provider took, with `payment.refunded`. A refund the provider refuses is released (its amount is
 * refundable again) and its problem thrown; one whose outcome is unknown stays reserved for the sweeper.
 */
export async function executeRefunds(tenantId: string, paymentId: string, now: Date): Promise<Payment> {
  let payment = await getPayment(tenantId, paymentId);
  if (!payment) throw DomainError.notFound('The payment');
  const provider = await providerOf(tenantId, payment.provider);
  for (const refund of pendingRefunds(payment)) {
    let providerRefundId: string;
    try {
      ({ provider_refund_id: providerRefundId } = await provider.refund(payment, refund));
    } catch (error) {
      if (error instanceof DomainError) await releaseRefund(tenantId, paymentId, refund.id, now);
      throw error;
    }
    payment = await retrying(async () => {
      const before = await getPayment(tenantId, paymentId);
      if (!before) throw DomainError.notFound('The payment');
      const mine = before.refunds.find((r) => r.id === refund.id);
      if (!mine || mine.status !== 'pending') return before;
      const amountRefunded = before.amount_refunded + refund.amount;
      const after: Payment = {
        ...before,
        refunds: before.refunds.map((r) =>
          r.id === refund.id ? { ...r, status: 'succeeded' as const, provider_refund_id: providerRefundId } : r,
        ),
        amount_refunded: amountRefunded,
        status: statusAfterRefunds({ amount: before.amount, amount_refunded: amountRefunded }),
        updated_at: now.toISOString(),
        version: before.version + 1,
      };
      const event = paymentEvent('payment.refunded', after, now, {
        refund: { ...refund, status: 'succeeded', provider_refund_id: providerRefundId },
        changes: {
          amount_refunded: { from: before.amount_refunded, to: after.amount_refunded },
          ...(after.status !== before.status ? { status: { from: before.status, to: after.status } } : {}),
        },
      });
      await savePayment(before, after, [eventPut(event)]);
      return after;
    });
  }
  return payment;
}

async function releaseRefund(tenantId: string, paymentId: string, refundId: string, now: Date) {
  await retrying(async () => {
    const before = await getPayment(tenantId, paymentId);
    if (!before?.refunds.some((r) => r.id === refundId && r.status === 'pending')) return;
    const after = {
      ...before,
      refunds: before.refunds.filter((r) => r.id !== refundId),
      updated_at: now.toISOString(),
      version: before.version + 1,
    };
    await savePayment(before, after, []);
  });
}

/** A refund reserved on a payment version (not yet sent), or the problem why it cannot be. */
function withRefund(p: Payment, amount: number, reason: Refund['reason'], now: Date): Payment {
  const problem = refundProblem(p, amount);
  if (problem)
    throw problem.code === 'refund_exceeds_payment'
      ? DomainError.invalidField(problem.code, 'amount', problem.message)
      : DomainError.conflict(problem.code, problem.message);
  const at = now.toISOString();
  return {
    ...p,
    refunds: [
      ...p.refunds,
      { id: newId('rfd'), amount, status: 'pending', reason, provider_refund_id: null, created_at: at },
    ],
    updated_at: at,
    version: p.version + 1,
  };
}

/**
 * Refunds a paid payment, by `amount` (default: all that is left). The refund is first reserved on the
 * payment, conditional on its version, so two refunds racing never give back more than was paid; then sent.
 * Once reserved, the request answers with it: a send or a write that fails then (the provider out of
 * reach, throttling) leaves the refund `pending` for the sweeper, which sends reserved refunds, rather than
 * an error that a client would retry into a second refund. A provider's refusal still answers as an error.
 */
export async function refundPayment(tenantId: string, paymentId: string, amount: number | undefined, now: Date) {
  const reserved = await retrying(async () => {
    const before = await getPayment(tenantId, paymentId);
    if (!before) throw DomainError.notFound('The payment');
    const after = withRefund(before, amount ?? Math.max(refundable(before), 1), 'requested', now);
    await savePayment(before, after, []);
    return after;
  });
  return executeRefunds(tenantId, paymentId, now).catch((error: Error) => {
    if (error instanceof DomainError) throw error;
    logger.warn('refund reserved, left to the sweeper', {
      tenant_id: tenantId,
      payment_id: paymentId,
      error_name: error.name,
    });
    return reserved;
  });
}

/** The sweeper's work on one due payment: an open link past its time is expired; refunds left reserved are sent. */
export async function sweepPayment(
  tenantId: string,
  paymentId: string,
  now: Date,
): Promise<'expired' | 'paid' | 'refunded' | 'none'> {
  const payment = await getPayment(tenantId, paymentId);
  if (!payment) return 'none';
  if (payment.status === 'pending') {
    if (Date.parse(payment.expires_at) > now.getTime()) return 'none';
    // Close the link at the provider first: a customer who paid in the meantime keeps the booking.
    const provider = await providerOf(tenantId, payment.provider);
    const atProvider = await provider.expireLink(payment);
    const result = atProvider.paid
      ? await settle(tenantId, paymentId, { kind: 'paid', payment_intent_id: atProvider.payment_intent_id }, now)
      : await settle(tenantId, paymentId, { kind: 'expired' }, now);
    return result.payment.status === 'expired' ? 'expired' : 'paid';
  }
  if (pendingRefunds(payment).length > 0) {
    await executeRefunds(tenantId, paymentId, now);
    return 'refunded';
  }
  return 'none';
}

/**
 * A refund the provider reports itself (Stripe's `charge.refunded`, with the charge's total refunded): what
 * our own refunds (made or reserved) do not account for is recorded as a refund made at the provider.
 * A report that arrives before the payment's success first records the success.
 */
export async function reconcileProviderRefund(
  tenantId: string,
  paymentId: string,
  totalRefunded: number,
  paymentIntentId: string | undefined,
  eventId: string,
  now: Date,
): Promise<Settled> {
  const current = await getPayment(tenantId, paymentId);
  if (!current) throw DomainError.notFound('The payment');
  if (!isPaid(current.status))
    await settle(tenantId, paymentId, { kind: 'paid', payment_intent_id: paymentIntentId }, now);
  return retrying(async (): Promise<Settled> => {
    if (await providerEventApplied(tenantId, eventId)) return { payment: current, outcome: 'duplicate' };
    const before = await getPayment(tenantId, paymentId);
    if (!before) throw DomainError.notFound('The payment');
    const accounted = before.refunds.reduce((sum, r) => sum + r.amount, 0);
    const extra = Math.min(totalRefunded - accounted, refundable(before));
    if (extra <= 0) return { payment: before, outcome: 'unchanged' };
    const at = now.toISOString();
    const refund: Refund = {
      id: newId('rfd'),
      amount: extra,
      status: 'succeeded',
      reason: 'provider',
      provider_refund_id: null,
      created_at: at,
    };
    const amountRefunded = before.amount_refunded + extra;
    const after: Payment = {
      ...before,
      refunds: [...before.refunds, refund],
      amount_refunded: amountRefunded,
      status: statusAfterRefunds({ amount: before.amount, amount_refunded: amountRefunded }),
      updated_at: at,
      version: before.version + 1,
    };
    const event = paymentEvent('payment.refunded', after, now, {
      refund,
      changes: {
        amount_refunded: { from: before.amount_refunded, to: amountRefunded },
        ...(after.status !== before.status ? { status: { from: before.status, to: after.status } } : {}),
      },
    });
    await savePayment(before, after, [eventPut(event)], providerEventWrite(tenantId, eventId, now)).catch(
      (error: unknown) => {
        if (error instanceof DuplicateProviderEvent) return;
        throw error;
      },
    );
    return { payment: after, outcome: 'applied' };
  });
}

// --- What bookings ask of payments ---------------------------------------------------------------------

/** The requirement a booking of this service has by the tenant's settings, if any. */
export async function bookingRequirement(tenantId: string, service: string): Promise<PaymentRequirement | undefined> {
  return requirementFor(await getSettings(tenantId), service);
}

/**
 * The payment a new booking waits for (its id is the booking's `payment.id`), with its link made: its write
 * and `payment.created`, for the booking's own transaction. `abandon` closes the link if that transaction
 * does not commit (the slot was taken).
 */
export async function paymentForNewBooking(booking: Booking, baseUrl: string, now: Date) {
  const required = booking.payment;
  if (!required) throw new Error('booking requires no payment');
  const settings = await getSettings(booking.tenant_id);
  const payment = await draftPayment(
    booking.tenant_id,
    required.id,
    { purpose: required.purpose, amount: required.amount, currency: required.currency },
    { booking_id: booking.id, conversation_id: booking.conversation_id, customer_id: booking.customer.id },
    settings,
    baseUrl,
    booking.service,
    now,
  );
  return {
    payment,
    items: [paymentWrite(undefined, payment)] as TransactItem[],
    events: [paymentEvent('payment.created', payment, now)],
    abandon: async () => {
      const provider = await providerOf(booking.tenant_id, payment.provider);
      await provider
        .expireLink(payment)
        .catch((error: Error) => logger.warn('an unused payment link could not be closed', { error_name: error.name }));
    },
  };
}

/**
 * What a booking's change does to the payment it waits for or was paid with, in the booking's transaction:
 * cancelling it withdraws an open link (`payment.canceled`), or reserves the refund the tenant's policy gives
 * for a paid one. `afterCommit` then closes the link or sends the refund (the sweeper finishes either if
 * the function stops first).
 */
export async function paymentOnBookingChange(before: Booking, after: Booking, now: Date) {
  const none = { items: [] as TransactItem[], events: [] as EventEnvelope[], afterCommit: async () => undefined };
  if (!before.payment || after.status !== 'cancelled' || before.status === 'cancelled') return none;
  const payment = await getPayment(before.tenant_id, before.payment.id);
  if (!payment) return none;
  if (payment.status === 'pending') {
    const canceled: Payment = {
      ...payment,
      status: 'canceled',
      status_reason: 'booking_cancelled',
      updated_at: now.toISOString(),
      version: payment.version + 1,
    };
    return {
      items: [paymentWrite(payment, canceled)],
      events: [statusEvent(payment, canceled, now)],
      afterCommit: async () => {
        // A customer who paid at that very moment is refunded in full (settle's late payment).
        const provider = await providerOf(payment.tenant_id, payment.provider);
        const atProvider = await provider.expireLink(canceled);
        if (atProvider.paid)
          await settle(
            payment.tenant_id,
            payment.id,
            { kind: 'paid', payment_intent_id: atProvider.payment_intent_id },
            now,
          );
      },
    };
  }
  const settings = await getSettings(before.tenant_id);
  const amount = policyRefund(settings.refund_policy, payment, before.start_at, now);
  if (amount <= 0) return none;
  const reserved = withRefund(payment, amount, 'booking_cancelled', now);
  return {
    items: [paymentWrite(payment, reserved)],
    events: [],
    afterCommit: async () => {
      await executeRefunds(payment.tenant_id, payment.id, now).catch((error: Error) =>
        // The reservation is in the due index: the sweeper sends it.
        logger.warn('a refund by policy was left to the sweeper', { error_name: error.name }),
      );
    },
  };
}
