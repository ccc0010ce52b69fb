import { useEffect, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Cards from '@cloudscape-design/components/cards';
import type { MessagingClient, WhatsAppChannel } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { DialogFooter } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { formatDateTime } from '../format';

type EmbeddedSignup = Awaited<ReturnType<MessagingClient['channels']['whatsappSignupConfig']>>;
type ChannelRow = { channel: 'sandbox' } | WhatsAppChannel;

const isWhatsApp = (c: ChannelRow): c is WhatsAppChannel => c.channel === 'whatsapp';
const numberOf = (c: WhatsAppChannel) => c.display_phone_number ?? c.phone_number_id;

/** Settings › Channels (admins connect; everyone sees what is connected and whether it works). */
export function ChannelsPage() {
  const { me, flash } = useApp();
  const isAdmin = me.role === 'admin';
  const channels = useResource(async (client) => {
    const [data, signup] = await Promise.all([client.channels.list(), client.channels.whatsappSignupConfig()]);
    return { data, signup: signup.available ? signup : null };
  }, []);
  const [connecting, setConnecting] = useState<'token' | null>(null);
  const signup = useEmbeddedSignup(channels.data?.signup ?? null, () => {
    flash({ type: 'success', content: 'WhatsApp number connected.' });
    void channels.reload();
  });
  const whatsapp = (channels.data?.data ?? []).filter(isWhatsApp);
  const lapsed = whatsapp.filter((c) => c.status === 'needs_reauthorization');

  const connectActions = isAdmin && (
    <SpaceBetween direction="horizontal" size="xs">
      <Button onClick={() => setConnecting('token')}>Use an access token</Button>
      <Button
        variant="primary"
        disabled={!channels.data?.signup}
        disabledReason="This deployment has no Meta app for Embedded Signup: use an access token."
        loading={signup.busy}
        onClick={signup.start}
      >
        Connect WhatsApp with Facebook
      </Button>
    </SpaceBetween>
  );

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Where customers reach you. The sandbox is always there for trying things out."
          actions={connectActions}
        >
          Channels
        </Header>
      }
    >
      <SpaceBetween size="l">
        {lapsed.map((c) => (
          <Alert
            key={c.phone_number_id}
            type="error"
            header={`WhatsApp ${numberOf(c)} must be reconnected`}
            action={
              isAdmin ? (
                // Without Embedded Signup, reconnecting means giving a new token.
                <Button onClick={channels.data?.signup ? signup.start : () => setConnecting('token')}>Reconnect</Button>
              ) : undefined
            }
          >
            Meta refused its access token (it expired or was revoked), so no message is sent through this number until
            {isAdmin ? ' you reconnect it.' : ' an admin reconnects it.'} Customers&rsquo; messages still arrive.
          </Alert>
        ))}
        <ErrorAlert error={channels.error ?? signup.error} />
        <Cards
          variant="container"
          items={channels.data?.data ?? []}
          loading={channels.loading && !channels.data}
          loadingText="Loading channels"
          trackBy={(c) => (isWhatsApp(c) ? c.phone_number_id : c.channel)}
          header={<Header variant="h2">Connected</Header>}
          ariaLabels={{ cardsLabel: 'Channels', itemSelectionLabel: () => '', selectionGroupLabel: '' }}
          cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1100, cards: 3 }]}
          cardDefinition={{
            header: (c) => (isWhatsApp(c) ? `WhatsApp ${numberOf(c)}` : 'Sandbox (for trying things out)'),
            sections: [
              {
                id: 'status',
                header: 'Status',
                content: (c) =>
                  isWhatsApp(c) && c.status === 'needs_reauthorization' ? (
                    <StatusIndicator type="error">Reconnect needed</StatusIndicator>
                  ) : (
                    <StatusIndicator type="success">Working</StatusIndicator>
                  ),
              },
              {
                id: 'connected',
                header: 'Connected',
                content: (c) => (isWhatsApp(c) ? formatDateTime(c.created_at) : 'Always'),
              },
            ],
          }}
        />
      </SpaceBetween>
      {connecting === 'token' && (
        <TokenModal
          onClose={() => setConnecting(null)}
          onConnected={() => {
            setConnecting(null);
            flash({ type: 'success', content: 'WhatsApp number connected.' });
            void channels.reload();
          }}
        />
      )}
    </ContentLayout>
  );
}

/**
 * Meta's Embedded Signup in a popup, without Meta's JavaScript SDK (the dashboard loads no third-party
 * script): the dialog reports the account and number to this window by postMessage, and its redirect page
 * (whatsapp-signup.html, same origin) hands back the OAuth code; then the API finishes the connection.
 */
function useEmbeddedSignup(config: EmbeddedSignup | null, onConnected: () => void) {
  const { client } = useApp();
  const action = useAction();
  const [session, setSession] = useState<{ waba_id?: string; phone_number_id?: string; code?: string } | null>(null);

  useEffect(() => {
    if (!session) return;
    const onMessage = (event: MessageEvent) => {
      if (
        event.origin === window.location.origin &&
        (event.data as { type?: string })?.type === 'whatsapp-signup-code'
      ) {
        setSession((s) => (s ? { ...s, code: String((event.data as { code?: string }).code ?? '') } : s));
      } else if (/^https:\/\/([a-z]+\.)?facebook\.com$/.test(event.origin)) {
        try {
          const data = (typeof event.data === 'string' ? JSON.parse(event.data) : event.data) as {
            type?: string;
            event?: string;
            data?: { waba_id?: string; phone_number_id?: string };
          };
          if (data.type === 'WA_EMBEDDED_SIGNUP' && data.event === 'FINISH')
            setSession((s) => (s ? { ...s, ...data.data } : s));
        } catch {
          // Not Meta's signup message.
        }
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [session !== null]);

  useEffect(() => {
    if (!session?.code || !session.waba_id || !session.phone_number_id) return;
    const body = { code: session.code, waba_id: session.waba_id, phone_number_id: session.phone_number_id };
    setSession(null);
    void action.run(() => client.channels.connectWhatsAppByEmbeddedSignup(body)).then((done) => done && onConnected());
  }, [session]);

  const start = () => {
    if (!config) return;
    const redirect = new URL('/whatsapp-signup.html', window.location.origin).toString();
    const url = new URL(`https://www.facebook.com/${config.graph_version}/dialog/oauth`);
    url.search = new URLSearchParams({
      client_id: config.app_id ?? '',
      config_id: config.config_id ?? '',
      response_type: 'code',
      override_default_response_type: 'true',
      display: 'popup',
      redirect_uri: redirect,
      extras: JSON.stringify({ setup: {}, sessionInfoVersion: '3' }),
    }).toString();
    setSession({});
    window.open(url.toString(), 'whatsapp-signup', 'width=640,height=760');
  };
  return { start, busy: action.busy || session !== null, error: action.error };
}

function TokenModal({ onClose, onConnected }: { onClose: () => void; onConnected: () => void }) {
  const { client } = useApp();
  const [form, setForm] = useState({ phone_number_id: '', waba_id: '', access_token: '' });
  const action = useAction();
  const set = (key: keyof typeof form) => (e: { detail: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.detail.value.trim() }));
  const submit = async () => {
    const done = await action.run(() =>
      client.channels.connectWhatsApp({
        phone_number_id: form.phone_number_id,
        access_token: form.access_token,
        ...(form.waba_id ? { waba_id: form.waba_id } : {}),
      }),
    );
    if (done) onConnected();
  };
  const fields = ['phone_number_id', 'waba_id', 'access_token'];
  // The token's problems are shown at its field.
  const isShownAtField = (error: unknown) =>
    ['whatsapp_token_unsuitable', 'whatsapp_credentials_invalid'].includes((error as { code?: string })?.code ?? '');
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Connect WhatsApp with an access token"
      onDismiss={onClose}
      footer={
        <DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void submit()} confirmText="Connect" />
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <SpaceBetween size="m">
          <Box variant="p">
            From Meta&rsquo;s WhatsApp Manager: the number&rsquo;s id, its WhatsApp Business Account id, and a
            long-lived system user token with the WhatsApp permissions.
          </Box>
          <FormField label="Phone number ID" errorText={fieldError(action.error, ['phone_number_id'])}>
            <Input value={form.phone_number_id} inputMode="numeric" onChange={set('phone_number_id')} />
          </FormField>
          <FormField label="WhatsApp Business Account ID" errorText={fieldError(action.error, ['waba_id'])}>
            <Input value={form.waba_id} inputMode="numeric" onChange={set('waba_id')} />
          </FormField>
          <FormField
            label="Access token"
            errorText={fieldError(
              action.error,
              ['access_token'],
              ['whatsapp_token_unsuitable', 'whatsapp_credentials_invalid'],
            )}
          >
            <Input value={form.access_token} type="password" onChange={set('access_token')} />
          </FormField>
          {!isShownAtField(action.error) && <ErrorAlert error={action.error} atFields={fields} />}
        </SpaceBetween>
      </form>
    </Modal>
  );
}
