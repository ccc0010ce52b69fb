import { validateStripeKey } from './providers';
import { changeSettings } from './settings-service';
import type { StripeSecrets } from './store';

/** Checks the key with Stripe, seals both secrets and makes Stripe the provider. */
export async function connectStripe(tenantId: string, secrets: StripeSecrets, now: Date) {
  const { livemode } = await validateStripeKey(secrets.secret_key);
  const stripe = {
    livemode,
    key_hint: `${secrets.secret_key.slice(0, 8)}…${secrets.secret_key.slice(-4)}`,
    connected_at: now.toISOString(),
  };
  return changeSettings(
    tenantId,
    (s) => ({ ...s, provider: 'stripe', stripe, hold_minutes: Math.max(s.hold_minutes, 30) }),
    secrets,
    now,
  );
}
