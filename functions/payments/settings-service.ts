import { DomainError } from '../platform/domain-error';
import { amountProblem, CURRENCIES, holdProblem, type PaymentSettings } from './payment';
import { getSettings, saveSettings, type StripeSecrets } from './store';

/** Where a tenant's Stripe events arrive (its own path, so each is verified with its own signing secret). */
export const stripeWebhookPath = (tenantId: string) => `/api/v1/payments/stripe/webhook/${tenantId}`;

export const settingsView = (tenantId: string, s: PaymentSettings & { version: number }) => ({
  provider: s.provider,
  refund_policy: s.refund_policy,
  hold_minutes: s.hold_minutes,
  booking_requirements: s.booking_requirements,
  stripe: s.stripe,
  webhook_path: stripeWebhookPath(tenantId),
  currencies: CURRENCIES,
  version: s.version,
});

export async function readSettings(tenantId: string) {
  return settingsView(tenantId, await getSettings(tenantId));
}

function checkSettings(s: PaymentSettings) {
  if (s.provider === 'stripe' && !s.stripe)
    throw DomainError.invalidField(
      'payment_provider_not_connected',
      'provider',
      'Connect Stripe before making it the provider.',
    );
  const hold = holdProblem(s.hold_minutes, s.provider);
  if (hold) throw DomainError.invalidField('invalid_hold', 'hold_minutes', hold);
  s.booking_requirements.forEach((r, i) => {
    const problem = amountProblem(r.amount, r.currency);
    if (problem)
      throw DomainError.invalidField(problem.code, `booking_requirements.${i}.${problem.path}`, problem.message);
  });
}

/** Changes what is given, conditional on the version read (a concurrent change is retried once, then 409). */
export async function changeSettings(
  tenantId: string,
  apply: (s: PaymentSettings) => PaymentSettings,
  secrets: StripeSecrets | undefined,
  now: Date,
) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getSettings(tenantId);
    const next = apply(current);
    checkSettings(next);
    if (await saveSettings(tenantId, next, current.version, secrets, now))
      return settingsView(tenantId, { ...next, version: current.version + 1 });
  }
  throw DomainError.conflict('concurrent_update', 'The payment settings are changing; retry.');
}

export const updateSettings = (tenantId: string, patch: Partial<PaymentSettings>, now: Date) =>
  changeSettings(tenantId, (s) => ({ ...s, ...patch }), undefined, now);
