// Public: the payment model and its rules, for bookings.
/** Payments: amounts, currencies, the state machine and the refund policy, pure (no AWS imports). */

export const PAYMENT_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'expired',
  'canceled',
  'refunded',
  'partially_refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_PURPOSES = ['deposit', 'full', 'balance', 'no_show_fee', 'other'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

export const PROVIDERS = ['sandbox', 'stripe'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * ISO 4217 currencies a link may be in, with their minor-unit exponent: 0 for zero-decimal currencies (an
 * amount of 500 JPY is ¥500), 3 for the three-decimal ones (500 KWD minor units are 0.500 KWD), 2 otherwise.
 * The list is the currencies card processors settle, so a tenant's provider can take each.
 */
const ZERO_DECIMAL = [
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
];
const THREE_DECIMAL = ['BHD', 'JOD', 'KWD', 'OMR', 'TND'];
const TWO_DECIMAL = [
  'AED',
  'ARS',
  'AUD',
  'BGN',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'KES',
  'MAD',
  'MXN',
  'MYR',
  'NGN',
  'NOK',
  'NZD',
  'PEN',
  'PHP',
  'PKR',
  'PLN',
  'QAR',
  'RON',
  'RSD',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'UYU',
  'ZAR',
];
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.fromEntries<number>([
  ...ZERO_DECIMAL.map((c): [string, number] => [c, 0]),
  ...TWO_DECIMAL.map((c): [string, number] => [c, 2]),
  ...THREE_DECIMAL.map((c): [string, number] => [c, 3]),
]);
export const CURRENCIES = Object.keys(CURRENCY_EXPONENTS).sort();

/** The most one payment may ask for, in minor units (card processors' own ceiling for a single charge). */
export const MAX_AMOUNT = 99_999_999;
/** The least, in minor units: a payment of nothing is no payment. */
export const MIN_AMOUNT = 1;

/** Why an amount cannot be asked for in this currency, if it cannot. Amounts are whole minor units. */
export function amountProblem(
  amount: number,
  currency: string,
): { path: string; message: string; code: string } | null {
  if (!(currency in CURRENCY_EXPONENTS))
    return {
      path: 'currency',
      code: 'unsupported_currency',
      message: `${currency} is not a supported ISO 4217 currency.`,
    };
  if (!Number.isInteger(amount))
    return {
      path: 'amount',
      code: 'invalid_amount',
      message: 'must be a whole number of minor units (cents, not euros)',
    };
  if (amount < MIN_AMOUNT) return { path: 'amount', code: 'invalid_amount', message: 'must be at least 1 minor unit' };
  if (amount > MAX_AMOUNT)
    return { path: 'amount', code: 'invalid_amount', message: `must be at most ${MAX_AMOUNT} minor units` };
  return null;
}

/** An amount for people: 1050 EUR is "EUR 10.50", 500 JPY "JPY 500". */
export function formatAmount(amount: number, currency: string): string {
  const exponent = CURRENCY_EXPONENTS[currency] ?? 2;
  return `${currency} ${(amount / 10 ** exponent).toFixed(exponent)}`;
}

/**
 * pending → succeeded (paid), failed (declined), expired (the link ran out), canceled (withdrawn, or its booking
 * was cancelled); succeeded → partially_refunded → refunded. A payment that arrives after its link expired or
 * was canceled is taken and refunded in full at once (`late_payment`): expired/canceled/failed → succeeded.
 */
export const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  pending: ['succeeded', 'failed', 'expired', 'canceled'],
  succeeded: ['partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  failed: ['succeeded'],
  expired: ['succeeded'],
  canceled: ['succeeded'],
  refunded: [],
};

export const canMove = (from: PaymentStatus, to: PaymentStatus) => TRANSITIONS[from].includes(to);
export const isPaid = (s: PaymentStatus) => s === 'succeeded' || s === 'partially_refunded' || s === 'refunded';

export interface Refund {
  id: string;
  amount: number;
  /** `pending`: reserved and being sent to the provider; `succeeded`: the provider took it. */
  status: 'pending' | 'succeeded';
  reason: RefundReason;
  provider_refund_id: string | null;
  created_at: string;
}
export type RefundReason = 'requested' | 'booking_cancelled' | 'late_payment' | 'provider';

export interface Payment {
  id: string;
  tenant_id: string;
  booking_id: string | null;
  conversation_id: string | null;
  customer_id: string | null;
  purpose: PaymentPurpose;
  description: string | null;
  amount: number;
  currency: string;
  status: PaymentStatus;
  /** Why the status is what it is, when it says more than the status: `declined`, `late_payment`, `booking_cancelled`… */
  status_reason: string | null;
  amount_refunded: number;
  refunds: Refund[];
  link: string;
  expires_at: string;
  provider: ProviderName;
  provider_ids: { checkout_session_id?: string; payment_intent_id?: string };
  paid_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export const PAYMENT_FIELDS = [
  'id',
  'tenant_id',
  'booking_id',
  'conversation_id',
  'customer_id',
  'purpose',
  'description',
  'amount',
  'currency',
  'status',
  'status_reason',
  'amount_refunded',
  'refunds',
  'link',
  'expires_at',
  'provider',
  'provider_ids',
  'paid_at',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof Payment)[];

/** At most this many refunds per payment: each is kept on it. */
export const MAX_REFUNDS = 20;

/** Refunded or reserved for a refund being sent. */
export const refundCommitted = (p: Pick<Payment, 'refunds'>) => p.refunds.reduce((sum, r) => sum + r.amount, 0);
export const refundable = (p: Pick<Payment, 'amount' | 'refunds' | 'status'>) =>
  isPaid(p.status) ? p.amount - refundCommitted(p) : 0;
export const pendingRefunds = (p: Pick<Payment, 'refunds'>) => p.refunds.filter((r) => r.status === 'pending');

/** Why this refund cannot be made, if it cannot: a refund is of a paid payment and never exceeds what is left. */
export function refundProblem(p: Payment, amount: number): { code: string; message: string } | null {
  if (!isPaid(p.status))
    return { code: 'payment_not_refundable', message: `A ${p.status} payment has taken no money to refund.` };
  if (p.refunds.length >= MAX_REFUNDS)
    return { code: 'payment_not_refundable', message: `A payment can be refunded at most ${MAX_REFUNDS} times.` };
  const left = refundable(p);
  if (left === 0) return { code: 'payment_not_refundable', message: 'The payment has been refunded in full.' };
  if (amount > left)
    return {
      code: 'refund_exceeds_payment',
      message: `At most ${formatAmount(left, p.currency)} (${left} minor units) is left to refund.`,
    };
  return null;
}

/** The status once the refunds that the provider confirmed are counted. */
export const statusAfterRefunds = (p: Pick<Payment, 'amount' | 'amount_refunded'>): PaymentStatus =>
  p.amount_refunded >= p.amount ? 'refunded' : p.amount_refunded > 0 ? 'partially_refunded' : 'succeeded';

/**
 * What a tenant refunds when a paid booking is cancelled: everything up to `full_refund_hours_before` hours
 * before its start, `late_refund_percent` of the amount after that (0: nothing).
 */
export interface RefundPolicy {
  full_refund_hours_before: number;
  late_refund_percent: number;
}
export const DEFAULT_REFUND_POLICY: RefundPolicy = { full_refund_hours_before: 24, late_refund_percent: 0 };

/** The amount the policy gives back for a booking starting at `startAt` cancelled at `now` (at most what is left). */
export function policyRefund(policy: RefundPolicy, p: Payment, startAt: string, now: Date): number {
  const left = refundable(p);
  const early = Date.parse(startAt) - now.getTime() >= policy.full_refund_hours_before * 3_600_000;
  const amount = early ? p.amount : Math.floor((p.amount * policy.late_refund_percent) / 100);
  return Math.min(amount, left);
}

/** What a booking must be paid with: a deposit or the full price. */
export interface PaymentRequirement {
  purpose: 'deposit' | 'full';
  amount: number;
  currency: string;
}

/** How long a link (and the slot its booking holds) lasts, by default and at most. Stripe takes 30 min to 24 h. */
export const DEFAULT_HOLD_MINUTES = 30;
export const MIN_HOLD_MINUTES = 1;
export const STRIPE_MIN_HOLD_MINUTES = 30;
export const MAX_HOLD_MINUTES = 24 * 60;

export interface PaymentSettings {
  provider: ProviderName;
  refund_policy: RefundPolicy;
  hold_minutes: number;
  /** A requirement per service name (`*`: every service without its own); a booking's own requirement wins. */
  booking_requirements: ({ service: string } & PaymentRequirement)[];
  stripe: { livemode: boolean; key_hint: string; connected_at: string } | null;
}

export const DEFAULT_SETTINGS: PaymentSettings = {
  provider: 'sandbox',
  refund_policy: DEFAULT_REFUND_POLICY,
  hold_minutes: DEFAULT_HOLD_MINUTES,
  booking_requirements: [],
  stripe: null,
};

/** The requirement of a booking of this service by the tenant's settings, if any. */
export const requirementFor = (settings: PaymentSettings, service: string): PaymentRequirement | undefined => {
  const found =
    settings.booking_requirements.find((r) => r.service === service) ??
    settings.booking_requirements.find((r) => r.service === '*');
  return found ? { purpose: found.purpose, amount: found.amount, currency: found.currency } : undefined;
};

/** Why a hold of this length cannot be used with this provider, if it cannot. */
export function holdProblem(minutes: number, provider: ProviderName): string | null {
  const min = provider === 'stripe' ? STRIPE_MIN_HOLD_MINUTES : MIN_HOLD_MINUTES;
  if (minutes < min || minutes > MAX_HOLD_MINUTES)
    return `must be from ${min} to ${MAX_HOLD_MINUTES} minutes with the ${provider} provider`;
  return null;
}

/** The message that carries a link into a conversation. */
export const linkMessage = (p: Pick<Payment, 'amount' | 'currency' | 'purpose' | 'link' | 'expires_at'>) =>
  `${p.purpose === 'deposit' ? 'Please pay your deposit' : 'Please complete your payment'} of ${formatAmount(p.amount, p.currency)}: ${p.link} (the link expires at ${p.expires_at.slice(0, 16).replace('T', ' ')} UTC).`;
