import {
  amountProblem,
  canMove,
  formatAmount,
  holdProblem,
  policyRefund,
  refundProblem,
  requirementFor,
  statusAfterRefunds,
  DEFAULT_SETTINGS,
  MAX_AMOUNT,
  type Payment,
} from '../../functions/payments/payment';

const payment = (extra: Partial<Payment> = {}): Payment => ({
  id: 'pay_1',
  tenant_id: 't',
  booking_id: 'bkg_1',
  conversation_id: null,
  customer_id: 'cus_1',
  purpose: 'deposit',
  description: null,
  amount: 2500,
  currency: 'EUR',
  status: 'succeeded',
  status_reason: null,
  amount_refunded: 0,
  refunds: [],
  link: 'https://example.test/pay',
  expires_at: '2031-01-01T00:00:00.000Z',
  provider: 'sandbox',
  provider_ids: {},
  paid_at: '2030-12-31T23:00:00.000Z',
  created_at: '2030-12-31T22:00:00.000Z',
  updated_at: '2030-12-31T23:00:00.000Z',
  version: 2,
  ...extra,
});

describe('amounts and currencies', () => {
  it.each([0, -1, 1.5, MAX_AMOUNT + 1, Number.NaN])('refuses %p minor units', (amount) => {
    expect(amountProblem(amount, 'EUR')?.code).toBe('invalid_amount');
  });
  it('refuses unknown currencies and takes the extremes', () => {
    expect(amountProblem(100, 'XYZ')?.code).toBe('unsupported_currency');
    expect(amountProblem(1, 'EUR')).toBeNull();
    expect(amountProblem(MAX_AMOUNT, 'JPY')).toBeNull();
  });
  it('writes zero-, two- and three-decimal currencies as people read them', () => {
    expect(formatAmount(500, 'JPY')).toBe('JPY 500');
    expect(formatAmount(1050, 'EUR')).toBe('EUR 10.50');
    expect(formatAmount(1500, 'KWD')).toBe('KWD 1.500');
  });
});

describe('the state machine', () => {
  it('moves a pending link to each outcome, and a late payment back to succeeded only from a closed link', () => {
    for (const to of ['succeeded', 'failed', 'expired', 'canceled'] as const) expect(canMove('pending', to)).toBe(true);
    expect(canMove('expired', 'succeeded')).toBe(true);
    expect(canMove('refunded', 'succeeded')).toBe(false);
    expect(canMove('succeeded', 'pending')).toBe(false);
  });
  it('counts refunds into the status', () => {
    expect(statusAfterRefunds({ amount: 2500, amount_refunded: 0 })).toBe('succeeded');
    expect(statusAfterRefunds({ amount: 2500, amount_refunded: 1 })).toBe('partially_refunded');
    expect(statusAfterRefunds({ amount: 2500, amount_refunded: 2500 })).toBe('refunded');
  });
});

describe('refunds', () => {
  it('never gives back more than was paid, counting refunds in flight', () => {
    const reserved = payment({
      refunds: [
        { id: 'rfd_1', amount: 2000, status: 'pending', reason: 'requested', provider_refund_id: null, created_at: '' },
      ],
    });
    expect(refundProblem(reserved, 500)).toBeNull();
    expect(refundProblem(reserved, 501)?.code).toBe('refund_exceeds_payment');
    expect(refundProblem(payment({ status: 'pending', paid_at: null }), 1)?.code).toBe('payment_not_refundable');
  });
  it('refunds in full before the policy\u2019s cut-off and its share after', () => {
    const policy = { full_refund_hours_before: 24, late_refund_percent: 50 };
    const now = new Date('2031-01-01T00:00:00Z');
    expect(policyRefund(policy, payment(), '2031-01-02T00:00:00Z', now)).toBe(2500);
    expect(policyRefund(policy, payment(), '2031-01-01T23:59:00Z', now)).toBe(1250);
    expect(policyRefund({ ...policy, late_refund_percent: 0 }, payment(), '2031-01-01T01:00:00Z', now)).toBe(0);
    expect(policyRefund(policy, payment({ amount: 2501 }), '2031-01-01T01:00:00Z', now)).toBe(1250);
  });
});

describe('settings', () => {
  it('finds a service\u2019s requirement, else the catch-all', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      booking_requirements: [
        { service: 'Colour', purpose: 'full' as const, amount: 9000, currency: 'EUR' },
        { service: '*', purpose: 'deposit' as const, amount: 1000, currency: 'EUR' },
      ],
    };
    expect(requirementFor(settings, 'Colour')).toEqual({ purpose: 'full', amount: 9000, currency: 'EUR' });
    expect(requirementFor(settings, 'Cut')).toEqual({ purpose: 'deposit', amount: 1000, currency: 'EUR' });
    expect(requirementFor(DEFAULT_SETTINGS, 'Cut')).toBeUndefined();
  });
  it('holds a Stripe link at least 30 minutes (a Checkout Session\u2019s least)', () => {
    expect(holdProblem(10, 'stripe')).toMatch(/30/);
    expect(holdProblem(10, 'sandbox')).toBeNull();
  });
});
