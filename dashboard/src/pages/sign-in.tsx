import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
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
import { clientOptions, persist } from '../session';

/** A tenant the API named in `tenant_required`: the password is right there. */
interface TenantChoice {
  id: string;
  name: string;
}

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
  const [choices, setChoices] = useState<TenantChoice[]>([]);
  const [tenantChoice, setTenantChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ header: string; detail: string; cause: unknown } | null>(null);
  const [tried, setTried] = useState(false);
  const chooseTenant = choices.length > 0;

  const emailError = tried && !/^\S+@\S+\.\S+$/.test(email) ? 'Enter the email address you sign in with.' : '';
  const passwordError = tried && password === '' ? 'Enter your password.' : '';
  const tenantError = tried && chooseTenant && !tenantChoice ? 'Choose the organization to sign in to.' : '';

  async function submit() {
    setTried(true);
    if (!/^\S+@\S+\.\S+$/.test(email) || password === '' || (chooseTenant && !tenantChoice)) return;
    setBusy(true);
    setError(null);
    try {
      const client = await MessagingClient.login({
        ...clientOptions(apiUrl),
        email: email.trim(),
        password,
        tenantId: chooseTenant ? tenantChoice : undefined,
        onSessionChange: persist,
      });
      const me = await client.auth.me();
      if (me.kind !== 'user') throw new Error('Not a user session.');
      onSignedIn(client, me);
    } catch (e) {
      setError({ ...explain(e), cause: e });
      if (e instanceof BadRequestError && e.code === 'tenant_required') {
        setChoices(e.problem.tenants ?? []);
        setTenantChoice('');
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
                  <RadioGroup
                    value={tenantChoice}
                    onChange={(e) => setTenantChoice(e.detail.value)}
                    items={choices.map((t) => ({ value: t.id, label: t.name, description: t.id }))}
                    ariaLabel="Organization"
                  />
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
