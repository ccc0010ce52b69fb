// Public: the payment API schemas, for the events contract.
import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { Message } from '../conversations/contract';
import { CURRENCIES, MAX_AMOUNT, MAX_HOLD_MINUTES, PAYMENT_PURPOSES, PAYMENT_STATUSES, PROVIDERS } from './payment';

const minorUnits = (description: string) =>
  z.int().check(z.minimum(0), z.maximum(MAX_AMOUNT), z.meta({ description, examples: [2500] }));

export const Refund = named(
  'Refund',
  z.object({
    id: resourceId('rfd'),
    amount: minorUnits('In the payment\u2019s minor units.'),
    status: z.enum(['pending', 'succeeded']).check(
      z.meta({
        description: '`pending`: reserved and on its way to the provider; `succeeded`: the provider took it.',
      }),
    ),
    reason: z.enum(['requested', 'booking_cancelled', 'late_payment', 'provider']).check(
      z.meta({
        description:
          '`requested`: by `POST /payments/{id}/refund`; `booking_cancelled`: the refund policy; `late_payment`: paid after the link ' +
          'closed, given back in full; `provider`: made at the provider (Stripe\u2019s dashboard).',
      }),
    ),
    provider_refund_id: z.nullable(z.string()),
    created_at: timestamp,
  }),
);

export const Payment = named(
  'Payment',
  z.object({
    id: resourceId('pay'),
    tenant_id: tenantId,
    booking_id: z.nullable(resourceId('bkg')),
    conversation_id: z.nullable(resourceId('conv')),
    customer_id: z.nullable(resourceId('cus')),
    purpose: z.enum(PAYMENT_PURPOSES),
    description: z.nullable(z.string()),
    amount: minorUnits('In the currency\u2019s minor units (cents; yen for JPY, a zero-decimal currency).'),
    currency: z.string().check(z.meta({ description: 'ISO 4217, upper case.', examples: ['EUR'] })),
    status: z.enum(PAYMENT_STATUSES),
    status_reason: z.nullable(z.string()).check(
      z.meta({
        description:
          '`declined`, `canceled`, `booking_cancelled`, or `late_payment` (paid after the link expired or was withdrawn: refunded in full).',
      }),
    ),
    amount_refunded: minorUnits('Refunds the provider confirmed.'),
    refunds: z.array(Refund),
    link: z.string().check(z.meta({ format: 'uri', description: 'Where the customer pays.' })),
    expires_at: timestamp,
    provider: z.enum(PROVIDERS),
    provider_ids: z.object({
      checkout_session_id: z.optional(z.string()),
      payment_intent_id: z.optional(z.string()),
    }),
    paid_at: z.nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

export const CreatedPayment = named(
  'CreatedPayment',
  z.object({
    payment: Payment,
    message_id: z
      .nullable(resourceId('msg'))
      .check(z.meta({ description: 'The message that carried the link (`send: true`).' })),
  }),
);

const RefundPolicy = z.object({
  full_refund_hours_before: z
    .int()
    .check(
      z.meta({ description: 'A paid booking cancelled at least this long before its start is refunded in full.' }),
    ),
  late_refund_percent: z
    .int()
    .check(z.meta({ description: 'The share of the amount refunded when it is cancelled later (0: nothing).' })),
});

export const PaymentSettings = named(
  'PaymentSettings',
  z.object({
    provider: z.enum(PROVIDERS),
    refund_policy: RefundPolicy,
    hold_minutes: z
      .int()
      .check(
        z.maximum(MAX_HOLD_MINUTES),
        z.meta({ description: 'How long a link stays open and its booking holds its slot.' }),
      ),
    booking_requirements: z.array(
      z.object({
        service: z.string().check(z.meta({ description: 'A service name, or `*` for every service without its own.' })),
        purpose: z.enum(['deposit', 'full']),
        amount: minorUnits('In the currency\u2019s minor units.'),
        currency: z.string(),
      }),
    ),
    stripe: z.nullable(
      z
        .object({ livemode: z.boolean(), key_hint: z.string(), connected_at: timestamp })
        .check(z.meta({ description: 'The connected Stripe account; its key and signing secret are never returned.' })),
    ),
    webhook_path: z
      .string()
      .check(z.meta({ description: 'Add the API\u2019s base URL plus this path as an endpoint in Stripe.' })),
    currencies: z.array(z.string()).check(z.meta({ description: 'The ISO 4217 currencies a payment may be in.' })),
    version: z.int(),
  }),
);

export const StripeWebhookResult = named(
  'StripeWebhookResult',
  z.object({
    received: z.literal(true),
    outcome: z.enum(['applied', 'duplicate', 'unchanged', 'ignored']).check(
      z.meta({
        description:
          '`duplicate`: this event id was applied before; `ignored`: not a payment of this tenant, or a type we do not use.',
      }),
    ),
  }),
);

const params = { id: resourceId('pay') };
const checkoutParams = { tenant_id: tenantId, id: resourceId('pay') };
const paymentErrors = [
  'unsupported_currency',
  'invalid_amount',
  'invalid_hold',
  'payment_provider_not_connected',
  'stripe_credentials_invalid',
  'stripe_request_refused',
];

export const contract = defineContract({
  'payments-list': {
    operationId: 'listPayments',
    summary: 'List payments',
    description: 'Newest first; filter by `status`, `booking_id`, `customer_id` and the creation time (`from`, `to`).',
    responses: { 200: { description: 'A page of payments.', body: page('PaymentList', Payment) } },
  },
  'payments-create': {
    operationId: 'createPayment',
    summary: 'Create a payment link',
    description:
      'A link for a booking and/or a conversation, with the tenant\u2019s provider (the sandbox, or Stripe Checkout). `send: true` ' +
      `also sends it into the conversation as a message. Amounts are whole minor units from 1 to ${MAX_AMOUNT}. Emits \`payment.created\`.`,
    responses: { 201: { description: 'The payment and its link.', body: CreatedPayment, headers: ['Location'] } },
    errors: {
      422: [
        ...paymentErrors,
        'payment_owner_required',
        'unknown_booking',
        'unknown_conversation',
        'conversation_customer_mismatch',
        'payment_without_conversation',
        'outside_service_window',
      ],
    },
    requestExample: {
      booking_id: 'bkg_01JDQ8ZK3M4N5P6Q7R8S9T0V1W',
      purpose: 'balance',
      amount: 4500,
      currency: 'EUR',
      send: true,
    },
  },
  'payments-get': {
    operationId: 'getPayment',
    summary: 'Get a payment',
    description: 'The payment, its link and its refunds.',
    params,
    responses: { 200: { description: 'The payment.', body: Payment, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'payments-refund': {
    operationId: 'refundPayment',
    summary: 'Refund a payment (admin)',
    description:
      'Gives back `amount` minor units (default: all that is left), at most what was paid less what was refunded. Safe to race: each ' +
      'refund is reserved on the payment before it is sent. Emits `payment.refunded` once the provider takes it.',
    params,
    responses: { 200: { description: 'The payment with its refunds.', body: Payment, headers: ['ETag'] } },
    errors: {
      404: ['not_found'],
      409: ['payment_not_refundable', 'concurrent_update'],
      422: [
        'refund_exceeds_payment',
        'stripe_credentials_invalid',
        'stripe_request_refused',
        'payment_provider_not_connected',
      ],
    },
    requestExample: { amount: 1000 },
  },
  'payments-cancel': {
    operationId: 'cancelPayment',
    summary: 'Withdraw an unpaid link',
    description:
      'The link closes (`payment.canceled`); a booking waiting for it is cancelled (`payment_canceled`). A customer who pays at that moment is refunded in full.',
    params,
    responses: { 200: { description: 'The canceled payment.', body: Payment, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 409: ['payment_not_pending', 'concurrent_update'] },
  },
  'payments-send': {
    operationId: 'sendPaymentLink',
    summary: 'Send the link into the conversation',
    description: 'Sends (or sends again) an open link into the payment\u2019s conversation, as a message.',
    params,
    responses: { 202: { description: 'The queued message.', body: Message } },
    errors: {
      404: ['not_found'],
      409: ['payment_not_pending'],
      422: ['payment_without_conversation', 'outside_service_window'],
    },
  },
  'payments-settings-get': {
    operationId: 'getPaymentSettings',
    summary: 'Get the payment settings',
    description:
      'The provider, refund policy, hold and per-service requirements. Stripe\u2019s secrets are never returned.',
    responses: { 200: { description: 'The settings.', body: PaymentSettings } },
  },
  'payments-settings-update': {
    operationId: 'updatePaymentSettings',
    summary: 'Change the payment settings (admin)',
    description: 'Changes what is sent. `provider: stripe` needs Stripe connected first.',
    responses: { 200: { description: 'The settings as changed.', body: PaymentSettings } },
    errors: {
      409: ['concurrent_update'],
      422: ['payment_provider_not_connected', 'invalid_hold', 'unsupported_currency', 'invalid_amount'],
    },
    requestExample: { refund_policy: { full_refund_hours_before: 48, late_refund_percent: 50 } },
  },
  'payments-connect-stripe': {
    operationId: 'connectStripe',
    summary: 'Connect Stripe (admin)',
    description:
      'A restricted key (write access to Checkout Sessions and Refunds) and the signing secret of the endpoint added in Stripe at ' +
      '`webhook_path`. The key is checked with a call to Stripe; both are sealed and never returned. The provider becomes `stripe`.',
    responses: { 200: { description: 'The settings.', body: PaymentSettings } },
    errors: { 422: ['stripe_credentials_invalid'] },
    requestExample: { secret_key: 'rk_live_51AbCdEfGhIjKlMnOp', webhook_secret: 'whsec_0123456789abcdefABCDEF' },
  },
  'payments-stripe-webhook': {
    operationId: 'receiveStripeWebhook',
    summary: 'Stripe webhook (Stripe)',
    description:
      'Stripe\u2019s events for one tenant, verified on the raw body with its signing secret (`Stripe-Signature`), applied once per ' +
      'event id, in any order. A forged or stale signature is 400 and changes nothing.',
    params: { tenant_id: tenantId },
    headers: { 'Stripe-Signature': { description: 'Stripe\u2019s `t=…,v1=…` signature.' } },
    responses: { 200: { description: 'Received.', body: StripeWebhookResult } },
    errors: { 400: ['invalid_signature'], 404: ['not_found'] },
  },
  'payments-checkout-page': {
    operationId: 'paymentCheckoutPage',
    summary: 'The customer\u2019s payment page',
    description:
      'The page a link opens: with the sandbox provider, Pay and Decline buttons; otherwise (and once paid) where the payment stands.',
    params: checkoutParams,
    responses: { 200: { description: 'An HTML page.', html: true } },
    errors: { 404: ['not_found'] },
  },
  'payments-checkout-pay': {
    operationId: 'paymentCheckoutPay',
    summary: 'Sandbox: pay',
    description: 'The sandbox page\u2019s Pay button.',
    params: checkoutParams,
    responses: { 200: { description: 'An HTML page.', html: true } },
    errors: { 404: ['not_found'], 409: ['not_sandbox'] },
  },
  'payments-checkout-decline': {
    operationId: 'paymentCheckoutDecline',
    summary: 'Sandbox: decline',
    description: 'The sandbox page\u2019s Decline button: the payment fails.',
    params: checkoutParams,
    responses: { 200: { description: 'An HTML page.', html: true } },
    errors: { 404: ['not_found'], 409: ['not_sandbox'] },
  },
});

export { CURRENCIES };
