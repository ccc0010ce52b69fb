import { useEffect, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import { useAction, useApp, useResource } from '../context';
import { ErrorAlert, fieldError } from '../components/errors';
import { formatDateTime } from '../format';

/** Settings › Payments: the provider (sandbox or the tenant's Stripe), the hold, and the refund policy. */
export function PaymentSettingsPage() {
  const { client, isAdmin, flash } = useApp();
  const settings = useResource((c) => c.payments.getSettings(), []);
  const [hold, setHold] = useState('');
  const [hours, setHours] = useState('');
  const [percent, setPercent] = useState('');
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const save = useAction();
  const connect = useAction();
  const s = settings.data;
  useEffect(() => {
    if (!s) return;
    setHold(String(s.hold_minutes));
    setHours(String(s.refund_policy.full_refund_hours_before));
    setPercent(String(s.refund_policy.late_refund_percent));
  }, [s]);

  const saveSettings = async (changes: Parameters<typeof client.payments.updateSettings>[0]) => {
    if (await save.run(() => client.payments.updateSettings(changes))) {
      flash({ type: 'success', content: 'The payment settings are saved.' });
      void settings.reload();
    }
  };
  const connectStripe = async () => {
    if (
      await connect.run(() => client.payments.connectStripe({ secret_key: secretKey, webhook_secret: webhookSecret }))
    ) {
      setSecretKey('');
      setWebhookSecret('');
      flash({ type: 'success', content: 'Stripe is connected.' });
      void settings.reload();
    }
  };

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="How customers pay deposits and payment links, and what a cancellation refunds."
        >
          Payments
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={settings.error} action={<Button onClick={() => void settings.reload()}>Retry</Button>} />
        <ErrorAlert error={save.error} />
        {s && (
          <>
            <Container header={<Header variant="h2">Provider</Header>}>
              <SpaceBetween size="m">
                <Tiles
                  ariaLabel="Provider"
                  value={s.provider}
                  onChange={(e) => isAdmin && void saveSettings({ provider: e.detail.value as 'sandbox' | 'stripe' })}
                  items={[
                    {
                      value: 'sandbox',
                      label: 'Sandbox',
                      description: 'A test checkout page served by the API: no money moves.',
                    },
                    {
                      value: 'stripe',
                      label: 'Stripe',
                      description: s.stripe
                        ? `Connected ${formatDateTime(s.stripe.connected_at)} (${s.stripe.key_hint}${s.stripe.livemode ? ', live' : ', test mode'}).`
                        : 'Connect your Stripe account below first.',
                      disabled: !s.stripe || !isAdmin,
                    },
                  ]}
                />
                {isAdmin && (
                  <SpaceBetween size="s">
                    <Box variant="p">
                      In Stripe, add a webhook endpoint at this API&rsquo;s address plus <code>{s.webhook_path}</code>,
                      then paste a restricted key (Checkout Sessions and Refunds, write) and the endpoint&rsquo;s
                      signing secret. They are stored encrypted and never shown again.
                    </Box>
                    <ErrorAlert error={connect.error} />
                    <FormField
                      label="Restricted key"
                      errorText={fieldError(connect.error, ['secret_key'], ['stripe_credentials_invalid'])}
                    >
                      <Input
                        type="password"
                        value={secretKey}
                        onChange={(e) => setSecretKey(e.detail.value)}
                        placeholder="rk_live_…"
                      />
                    </FormField>
                    <FormField label="Webhook signing secret" errorText={fieldError(connect.error, ['webhook_secret'])}>
                      <Input
                        type="password"
                        value={webhookSecret}
                        onChange={(e) => setWebhookSecret(e.detail.value)}
                        placeholder="whsec_…"
                      />
                    </FormField>
                    <Button
                      onClick={() => void connectStripe()}
                      loading={connect.busy}
                      disabled={!secretKey || !webhookSecret}
                    >
                      {s.stripe ? 'Reconnect Stripe' : 'Connect Stripe'}
                    </Button>
                  </SpaceBetween>
                )}
              </SpaceBetween>
            </Container>
            <Container header={<Header variant="h2">Holds and refunds</Header>}>
              <SpaceBetween size="m">
                <FormField
                  label="Hold (minutes)"
                  description="How long a payment link stays open, and its booking keeps its time."
                  errorText={fieldError(save.error, ['hold_minutes'], ['invalid_hold'])}
                >
                  <Input type="number" value={hold} onChange={(e) => setHold(e.detail.value)} disabled={!isAdmin} />
                </FormField>
                <FormField label="Full refund until (hours before the start)">
                  <Input type="number" value={hours} onChange={(e) => setHours(e.detail.value)} disabled={!isAdmin} />
                </FormField>
                <FormField label="Refund after that (% of the amount)">
                  <Input
                    type="number"
                    value={percent}
                    onChange={(e) => setPercent(e.detail.value)}
                    disabled={!isAdmin}
                  />
                </FormField>
                {isAdmin && (
                  <Button
                    variant="primary"
                    loading={save.busy}
                    onClick={() =>
                      void saveSettings({
                        hold_minutes: Number(hold),
                        refund_policy: {
                          full_refund_hours_before: Number(hours),
                          late_refund_percent: Number(percent),
                        },
                      })
                    }
                  >
                    Save
                  </Button>
                )}
              </SpaceBetween>
            </Container>
          </>
        )}
      </SpaceBetween>
    </ContentLayout>
  );
}
