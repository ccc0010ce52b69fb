// Public: the payment requirement a booking accepts.
import * as z from 'zod/mini';
import { pageQuery } from '../platform/pagination';
import { idOf, instant, trimmed } from '../platform/validation';
import { customerId } from '../customers/schemas';
import { MAX_AMOUNT, MAX_HOLD_MINUTES, PAYMENT_PURPOSES, PAYMENT_STATUSES } from './payment';

/**
 * Amounts are checked here only as numbers: that they are whole, positive and within the maximum is a rule of
 * the domain (payment.ts amountProblem), which answers with its own codes (`invalid_amount`).
 */
const amount = z
  .number()
  .check(z.meta({ description: `Whole minor units (cents; yen for JPY), 1 to ${MAX_AMOUNT}.`, examples: [2500] }));
const currency = z.string().check(
  z.regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code, such as EUR'),
  z.overwrite((c) => c.toUpperCase()),
  z.meta({ examples: ['EUR'] }),
);

/** What a booking must be paid with (POST /bookings `payment`, and the settings' per-service requirements). */
export const PaymentRequirementBody = z.strictObject({
  purpose: z.enum(['deposit', 'full']),
  amount,
  currency,
});

export const CreatePaymentBody = z.strictObject({
  booking_id: z.optional(idOf('bkg', 'booking')),
  conversation_id: z.optional(idOf('conv', 'conversation')),
  purpose: z._default(z.enum(PAYMENT_PURPOSES), 'other'),
  amount,
  currency,
  description: z.optional(trimmed(1, 200)),
  expires_in_minutes: z.optional(
    z.int().check(
      z.meta({
        description: `How long the link stays open (default: the settings' \`hold_minutes\`; at most ${MAX_HOLD_MINUTES}).`,
      }),
    ),
  ),
  send: z.optional(
    z.boolean().check(z.meta({ description: 'Also send the link into the conversation as a message.' })),
  ),
});

export const ListPaymentsQuery = z.strictObject({
  ...pageQuery,
  status: z.optional(z.enum(PAYMENT_STATUSES)),
  booking_id: z.optional(idOf('bkg', 'booking')),
  customer_id: z.optional(customerId),
  from: z.optional(instant()),
  to: z.optional(instant()),
});

export const RefundBody = z.strictObject({
  amount: z.optional(amount.check(z.meta({ description: 'Minor units to give back (default: all that is left).' }))),
});

export const UpdateSettingsBody = z.strictObject({
  provider: z.optional(z.enum(['sandbox', 'stripe'])),
  refund_policy: z.optional(
    z.strictObject({
      full_refund_hours_before: z.int().check(z.minimum(0), z.maximum(24 * 30)),
      late_refund_percent: z.int().check(z.minimum(0), z.maximum(100)),
    }),
  ),
  hold_minutes: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_HOLD_MINUTES))),
  booking_requirements: z.optional(
    z.array(z.strictObject({ service: trimmed(1, 200), ...PaymentRequirementBody.shape })).check(z.maxLength(50)),
  ),
});

export const ConnectStripeBody = z.strictObject({
  secret_key: z
    .string()
    .check(z.regex(/^(rk|sk)_(test|live)_[A-Za-z0-9]{10,247}$/, 'a Stripe secret or restricted key (rk_live_…)')),
  webhook_secret: z
    .string()
    .check(z.regex(/^whsec_[A-Za-z0-9_+/=]{10,200}$/, 'the endpoint\u2019s signing secret (whsec_…)')),
});

export const CheckoutQuery = z.strictObject({ sig: z.string().check(z.maxLength(100)) });
