import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  AuthenticationError,
  BadRequestError,
  MessagingClient,
  PermissionError,
  RateLimitError,
} from '@messaging-platform/sdk';
import type { UserCaller } from '../context';
import { describeError, RequestId } from '../components/errors';
import { formatTime, formatWait } from '../format';
import { clientOptions, knownTenants, persist } from '../session';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sign in: email and password; a tenant choice when the login exists in several tenants. */
export function SignInPage({
  apiUrl,
  notice,
  onSignedIn,
}: {
  apiUrl: string;
  notice?: string;
  onSignedIn: (client: MessagingClient, me: UserCaller) => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [chooseTenant, setChooseTenant] = useState(false);
  const [tenantChoice, setTenantChoice] = useState('');
  const [tenantId, setTenantId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ header: string; detail: string; cause: unknown } | null>(null);
  const [tried, setTried] = useState(false);
  const known = knownTenants();
  const chosenTenant = tenantChoice === 'other' || known.length === 0 ? tenantId.trim() : tenantChoice;

  const emailError = tried && !/^\S+@\S+\.\S+$/.test(email) ? 'Enter the email address you sign in with.' : '';
  const passwordError = tried && password === '' ? 'Enter your password.' : '';
  const tenantError =
    tried && chooseTenant && !UUID.test(chosenTenant) ? 'Choose an organization or enter its ID.' : '';

  async function submit() {
    setTried(true);
    if (!/^\S+@\S+\.\S+$/.test(email) || password === '' || (chooseTenant && !UUID.test(chosenTenant))) return;
    setBusy(true);
    setError(null);
    try {
      const client = await MessagingClient.login({
        ...clientOptions(apiUrl),
        email: email.trim(),
        password,
        tenantId: chooseTenant ? chosenTenant : undefined,
        onSessionChange: persist,
      });
      const me = await client.auth.me();
      if (me.kind !== 'user') throw new Error('Not a user session.');
      onSignedIn(client, me);
    } catch (e) {
      setError({ ...explain(e), cause: e });
      if (e instanceof BadRequestError && e.code === 'tenant_required') {
        setChooseTenant(true);
        setTried(false);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Form
          header={
            <Header variant="h1" description="Conversations, bookings and webhooks of your organization.">
              Sign in to Messaging Platform
            </Header>
          }
          actions={
            <Button variant="primary" formAction="submit" loading={busy}>
              Sign in
            </Button>
          }
        >
          <Container>
            <SpaceBetween size="l">
              {notice && !error && <Alert type="info">{notice}</Alert>}
              {error && (
                <Alert type={error.header === 'Choose your organization' ? 'info' : 'error'} header={error.header}>
                  <SpaceBetween size="xxs">
                    <span>{error.detail}</span>
                    <RequestId error={error.cause} />
                  </SpaceBetween>
                </Alert>
              )}
              <FormField label="Email" errorText={emailError}>
                <Input
                  type="email"
                  autoComplete="username"
                  value={email}
                  onChange={(e) => setEmail(e.detail.value)}
                  ariaRequired
                  invalid={!!emailError}
                />
              </FormField>
              <FormField label="Password" errorText={passwordError}>
                <Input
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.detail.value)}
                  ariaRequired
                  invalid={!!passwordError}
                />
              </FormField>
              {chooseTenant && (
                <FormField
                  label="Organization"
                  description="This email belongs to several organizations. Choose the one to sign in to."
                  errorText={tenantError}
                >
                  <SpaceBetween size="s">
                    {known.length > 0 && (
                      <RadioGroup
                        value={tenantChoice}
                        onChange={(e) => setTenantChoice(e.detail.value)}
                        items={[
                          ...known.map((t) => ({ value: t.id, label: t.name, description: t.id })),
                          { value: 'other', label: 'Another organization', description: 'Enter its ID below' },
                        ]}
                        ariaLabel="Organization"
                      />
                    )}
                    {(known.length === 0 || tenantChoice === 'other') && (
                      <Input
                        value={tenantId}
                        onChange={(e) => setTenantId(e.detail.value)}
                        placeholder="Organization ID, e.g. 83c27e80-76f3-49ca-a17d-b8b1d6c80254"
                        ariaLabel="Organization ID"
                        invalid={!!tenantError}
                      />
                    )}
                    <Box variant="small">
                      Your admin finds the organization ID under Settings › Developer › API keys.
                    </Box>
                  </SpaceBetween>
                </FormField>
              )}
            </SpaceBetween>
          </Container>
        </Form>
      </form>
    </main>
  );
}

function explain(error: unknown): { header: string; detail: string } {
  if (error instanceof BadRequestError && error.code === 'tenant_required')
    return { header: 'Choose your organization', detail: 'This email and password work in several organizations.' };
  if (error instanceof AuthenticationError) {
    if (error.code === 'user_disabled')
      return { header: 'Account disabled', detail: 'Your account is disabled. Ask an admin of your organization.' };
    return { header: 'Sign-in failed', detail: 'The email or password is incorrect.' };
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter ?? 60;
    const at = new Date(Date.now() + wait * 1000).toISOString();
    const why =
      error.code === 'login_throttled'
        ? 'Too many failed sign-ins for this account from this address.'
        : 'Too many sign-in attempts from this address.';
    return {
      header: 'Sign-in locked for now',
      detail: `${why} Try again in ${formatWait(wait)} (at ${formatTime(at)}).`,
    };
  }
  if (error instanceof PermissionError && error.code === 'tenant_suspended')
    return { header: 'Organization suspended', detail: 'This organization is suspended. Contact support.' };
  return describeError(error);
}
