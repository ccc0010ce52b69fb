import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import Multiselect from '@cloudscape-design/components/multiselect';
import type { SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import Toggle from '@cloudscape-design/components/toggle';
import type { Delivery, WebhookEndpoint } from '@messaging-platform/sdk';
import { useAction, useApp, useFlashedAction, useResource } from '../context';
import { ConfirmModal, Empty, DialogFooter, EmptyUnlessFailed, ShownOnceModal } from '../components/common';
import {
  ALL,
  DELIVERY_PAGE_SIZE,
  DeliveryStatus,
  EVENT_COLUMN,
  EndpointUrl,
  FilterSelect,
  LoadMoreDeliveries,
  firstPages,
  lastError,
  useDeliveryFilters,
} from '../components/deliveries';
import { ErrorAlert, fieldError } from '../components/errors';
import { EVENT_GROUPS, type EventFilter } from '../events';
import { formatAgo, formatDateTime } from '../format';
import { follow, navigate } from '../router';

/** The endpoint form's fields, where the API's field errors show. */
const ENDPOINT_FIELDS = ['url', 'events', 'description'];

const DELIVERY_STATUSES = ['succeeded', 'pending', 'failed', 'cancelled'] as const;
const STATUSES: SelectProps.Option[] = [
  ALL,
  { value: 'succeeded', label: 'Succeeded' },
  { value: 'pending', label: 'Retrying' },
  { value: 'failed', label: 'Failed' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** Pauses or resumes an endpoint (with If-Match), flashing the outcome; the list's toggle and the menu share it. */
export function useSetActive(onChanged: () => void) {
  const { client, flash } = useApp();
  const flashed = useFlashedAction();
  return async (endpoint: WebhookEndpoint, active: boolean) => {
    const updated = await flashed('The endpoint was not changed', () =>
      client.webhooks.update(endpoint.id, { is_active: active }, { ifMatch: endpoint.version }),
    );
    if (updated) flash({ type: 'success', content: `${updated.url} is ${active ? 'active' : 'paused'}.` });
    onChanged();
  };
}

/**
 * An endpoint's Actions menu and its dialogs (edit, send a test event, pause or resume, rotate the secret,
 * delete): the endpoints list, for the selected row, and the endpoint's page share it.
 */
export function EndpointActions({
  endpoint,
  onChanged,
  onDeleted,
}: {
  endpoint: WebhookEndpoint | undefined;
  onChanged: () => void;
  onDeleted: (endpoint: WebhookEndpoint) => void;
}) {
  const { client, flash } = useApp();
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<{ header: string; url: string; secret: string } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const action = useAction();
  const flashed = useFlashedAction();
  const setActive = useSetActive(onChanged);

  const onItem = async (id: string) => {
    if (!endpoint) return;
    if (id === 'edit') setEditing(true);
    if (id === 'rotate' || id === 'delete') setConfirm(id);
    if (id === 'pause' || id === 'resume') await setActive(endpoint, id === 'resume');
    if (id === 'test') {
      const sent = await flashed('The test event was not sent', () => client.webhooks.test(endpoint.id));
      if (!sent) return;
      flash({
        type: 'success',
        content: `A webhook.test event is on its way to ${endpoint.url} (delivery ${sent.delivery_id}).`,
      });
      // The attempt is made in the background: show it once it has had a moment.
      setTimeout(onChanged, 1500);
    }
  };

  return (
    <>
      <ButtonDropdown
        disabled={!endpoint}
        onItemClick={(e) => void onItem(e.detail.id)}
        items={[
          { id: 'edit', text: 'Edit' },
          { id: 'test', text: 'Send test event' },
          endpoint?.is_active === false ? { id: 'resume', text: 'Resume' } : { id: 'pause', text: 'Pause' },
          { id: 'rotate', text: 'Rotate secret' },
          { id: 'delete', text: 'Delete' },
        ]}
      >
        Actions
      </ButtonDropdown>
      {editing && endpoint && (
        <EndpointModal
          endpoint={endpoint}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            flash({ type: 'success', content: `${saved.url} is saved.` });
            onChanged();
          }}
        />
      )}
      {secret && <SecretModal {...secret} onClose={() => setSecret(null)} />}
      <ConfirmModal
        visible={confirm !== null}
        header={confirm === 'delete' ? 'Delete endpoint' : 'Rotate signing secret'}
        confirmText={confirm === 'delete' ? 'Delete' : 'Rotate'}
        busy={action.busy}
        error={action.error}
        onCancel={() => {
          setConfirm(null);
          action.clearError();
        }}
        onConfirm={() => {
          if (!endpoint) return;
          if (confirm === 'delete')
            void action
              .run(async () => {
                await client.webhooks.delete(endpoint.id);
                return true;
              })
              .then((ok) => {
                if (!ok) return;
                flash({ type: 'success', content: `${endpoint.url} is deleted; its delivery history stays readable.` });
                setConfirm(null);
                onDeleted(endpoint);
              });
          else
            void action
              .run(() => client.webhooks.rotateSecret(endpoint.id))
              .then((rotated) => {
                if (!rotated) return;
                setConfirm(null);
                setSecret({ header: 'Secret rotated', url: rotated.url, secret: rotated.webhook_secret });
                onChanged();
              });
        }}
      >
        {confirm === 'delete' ? (
          <Box variant="p">
            Delete <b>{endpoint?.url}</b>? It receives nothing more, and its pending retries stop.
          </Box>
        ) : (
          <Box variant="p">
            Make a new signing secret for <b>{endpoint?.url}</b>? The current secret keeps signing too for 24 hours, so
            you can roll the new one out.
          </Box>
        )}
      </ConfirmModal>
    </>
  );
}

/** How the listed deliveries went: "97 of the 100 listed succeeded (97 %), 1 retrying, 2 failed". */
export function deliveryOutcomes(rows: Delivery[]): string {
  if (rows.length === 0) return '';
  const count = (status: Delivery['status']) => rows.filter((d) => d.status === status).length;
  const succeeded = count('succeeded');
  const rest = [
    [count('pending'), 'retrying'],
    [count('failed'), 'failed'],
    [count('cancelled'), 'cancelled'],
  ]
    .filter(([n]) => n)
    .map(([n, what]) => `${n} ${what}`);
  const rate = Math.floor((succeeded / rows.length) * 1000) / 10;
  return [`${succeeded} of the ${rows.length} listed succeeded (${rate} %)`, ...rest].join(', ');
}

/** One endpoint: its settings, every delivery made to it (any status), and its actions. */
export function EndpointPage({ id }: { id: string }) {
  const { isAdmin } = useApp();
  const endpoint = useResource((client) => client.webhooks.get(id), [id]);
  const [status, setStatus] = useState<SelectProps.Option>(ALL);
  const filters = useDeliveryFilters();
  const deliveries = useResource(
    (client) =>
      firstPages(
        client.webhooks.deliveries(id, {
          limit: DELIVERY_PAGE_SIZE,
          status: DELIVERY_STATUSES.find((s) => s === status.value),
          ...filters.query,
        }),
        filters.pages,
      ),
    [id, status.value, ...filters.deps],
    { pollMs: 10_000 },
  );
  const refresh = () => {
    void endpoint.reload();
    void deliveries.reload();
  };
  const e = endpoint.data;
  const rows = deliveries.data?.rows ?? [];
  const more = deliveries.data?.more ?? false;
  const filtered = !!status.value || filters.active;

  if (endpoint.error && !e)
    return (
      <SpaceBetween size="m">
        <ErrorAlert error={endpoint.error} action={<Button onClick={() => void endpoint.reload()}>Retry</Button>} />
        <Link href="/settings/webhooks" onFollow={follow}>
          Back to the endpoints
        </Link>
      </SpaceBetween>
    );
  if (!e)
    return (
      <Box textAlign="center" padding="xl">
        <Spinner /> Loading the endpoint…
      </Box>
    );

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={e.description ?? undefined}
          actions={
            isAdmin && (
              <EndpointActions
                endpoint={e}
                onChanged={refresh}
                onDeleted={() => navigate('/settings/webhooks', { replace: true })}
              />
            )
          }
        >
          <EndpointUrl endpoint={e} />
        </Header>
      }
    >
      <SpaceBetween size="l">
        {endpoint.error !== undefined && <ErrorAlert error={endpoint.error} />}
        <Container header={<Header variant="h2">Settings</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              {
                label: 'Status',
                value: (
                  <span data-testid="endpoint-status">
                    {e.is_active ? (
                      <StatusIndicator type="success">Active</StatusIndicator>
                    ) : (
                      <StatusIndicator type="stopped">Paused: receives nothing</StatusIndicator>
                    )}
                  </span>
                ),
              },
              { label: 'Events', value: e.events.join(', ') },
              {
                label: 'Endpoint ID',
                value: (
                  <CopyToClipboard
                    variant="inline"
                    textToCopy={e.id}
                    copyButtonAriaLabel="Copy endpoint ID"
                    copySuccessText="Endpoint ID copied"
                    copyErrorText="Endpoint ID failed to copy"
                  />
                ),
              },
              { label: 'Signing', value: 'Standard Webhooks (HMAC-SHA256); the secret is shown only when made' },
              { label: 'Created', value: formatDateTime(e.created_at) },
              { label: 'Changed', value: formatDateTime(e.updated_at) },
            ]}
          />
        </Container>
        <ErrorAlert error={deliveries.error} action={<Button onClick={() => void deliveries.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={rows}
          loading={deliveries.loading && !deliveries.data}
          loadingText="Loading deliveries"
          trackBy="id"
          ariaLabels={{ tableLabel: 'Deliveries' }}
          header={
            <Header
              variant="h2"
              counter={deliveries.data ? `(${rows.length}${more ? '+' : ''})` : undefined}
              description={
                <span data-testid="delivery-outcomes">
                  Newest event first.{rows.length > 0 && ` ${deliveryOutcomes(rows)}.`}
                </span>
              }
              actions={<Button iconName="refresh" ariaLabel="Refresh deliveries" onClick={refresh} />}
            >
              Deliveries
            </Header>
          }
          filter={
            <SpaceBetween direction="horizontal" size="s">
              <FilterSelect
                label="Status"
                ariaLabel="Filter by status"
                selected={status}
                options={STATUSES}
                onChange={filters.narrow(setStatus)}
              />
              {filters.filters}
            </SpaceBetween>
          }
          columnDefinitions={[
            EVENT_COLUMN,
            {
              id: 'status',
              header: 'Status',
              cell: (d) => (
                <SpaceBetween size="xxxs">
                  <DeliveryStatus status={d.status} />
                  {d.status === 'pending' && d.next_attempt_at && (
                    <Box variant="small">next attempt {formatAgo(d.next_attempt_at)}</Box>
                  )}
                </SpaceBetween>
              ),
            },
            { id: 'attempts', header: 'Attempts', cell: (d) => d.attempts.length },
            { id: 'last', header: 'Last response', cell: (d) => lastResponse(d) },
            { id: 'updated', header: 'Updated', cell: (d) => formatDateTime(d.updated_at) },
            { id: 'event_id', header: 'Event ID', cell: (d) => <code>{d.event_id}</code> },
          ]}
          footer={<LoadMoreDeliveries more={more} pages={filters.pages} onMore={filters.loadMore} />}
          empty={
            <EmptyUnlessFailed resource={deliveries}>
              <Empty title={filtered ? 'No matches' : 'No deliveries yet'}>
                {filtered
                  ? 'No delivery to this endpoint matches these filters.'
                  : e.is_active
                    ? 'Events it subscribes to are delivered here as they happen. Send a test event from Actions.'
                    : 'The endpoint is paused: resume it to receive events.'}
              </Empty>
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
    </ContentLayout>
  );
}

/** The last attempt's answer and how long it took, e.g. "HTTP 204 in 12 ms". */
function lastResponse(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  return last ? `${lastError(d)} in ${Math.round(last.duration_ms)} ms` : '—';
}

export function SecretModal({
  header,
  url,
  secret,
  onClose,
}: {
  header: string;
  url: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <ShownOnceModal
      header={header}
      warning={{
        header: 'Copy the signing secret now',
        text: `It is shown this once. Your receiver verifies every delivery to ${url} with it (Standard Webhooks).`,
      }}
      onClose={onClose}
    >
      <span className="secret" data-testid="webhook-secret">
        <CopyToClipboard
          variant="inline"
          textToCopy={secret}
          copyButtonAriaLabel="Copy signing secret"
          copySuccessText="Secret copied"
          copyErrorText="Secret failed to copy"
        />
      </span>
    </ShownOnceModal>
  );
}

/** The URL's problem, or '' when it is an absolute HTTPS URL. */
export function httpsUrlError(value: string): string {
  if (value.trim() === '') return 'Enter the URL that receives the events.';
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter a complete URL, such as https://crm.example.com/hooks/messaging.';
  }
  if (url.protocol !== 'https:') return 'The URL must start with https:// (deliveries are only sent over HTTPS).';
  if (url.username || url.password) return 'The URL must not contain a user name or password.';
  return '';
}

export function EndpointModal({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSaved: (saved: WebhookEndpoint, secret?: string) => void;
}) {
  const { client } = useApp();
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ['conversation.*']);
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [active, setActive] = useState(endpoint?.is_active ?? true);
  const [tried, setTried] = useState(false);
  const action = useAction();
  const urlError = (tried ? httpsUrlError(url) : '') || fieldError(action.error, ['url']);
  const eventsError =
    (tried && events.length === 0 ? 'Choose at least one event type or wildcard.' : '') ||
    fieldError(action.error, ['events']);
  const descriptionError = fieldError(action.error, ['description']);
  const options = EVENT_GROUPS.map((g) => ({ label: g.label, options: g.options }));
  const selectedOptions = EVENT_GROUPS.flatMap((g) => g.options).filter((o) => events.includes(o.value));
  const covered = events.includes('*')
    ? 'Every event, including types added later.'
    : events.filter((e) => e.endsWith('.*')).length > 0
      ? `Includes every ${events
          .filter((e) => e.endsWith('.*'))
          .map((e) => e.slice(0, -2))
          .join(' and ')} event, including types added later.`
      : undefined;

  const submit = async () => {
    setTried(true);
    if (httpsUrlError(url) || events.length === 0) return;
    const body = { url: url.trim(), events: events as EventFilter[], description: description.trim() };
    if (endpoint) {
      // Only what the user changed: a field left alone is never sent back (and so never re-validated).
      const all = { ...body, description: body.description || null, is_active: active };
      const changes = Object.fromEntries(
        Object.entries(all).filter(
          ([field, value]) => JSON.stringify(value) !== JSON.stringify(endpoint[field as keyof typeof all] ?? null),
        ),
      ) as Partial<typeof all>;
      if (Object.keys(changes).length === 0) return onSaved(endpoint);
      const saved = await action.run(() => client.webhooks.update(endpoint.id, changes, { ifMatch: endpoint.version }));
      if (saved) onSaved(saved);
    } else {
      const created = await action.run(() => client.webhooks.create(body));
      if (created) onSaved(created, created.webhook_secret);
    }
  };

  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      size="medium"
      header={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      onDismiss={onClose}
      footer={
        <DialogFooter
          onCancel={onClose}
          busy={action.busy}
          onConfirm={() => void submit()}
          confirmText={endpoint ? 'Save' : 'Add endpoint'}
        />
      }
    >
      <SpaceBetween size="m">
        <FormField label="URL" description="An HTTPS address on the public internet." errorText={urlError}>
          <Input type="url" value={url} onChange={(e) => setUrl(e.detail.value)} invalid={!!urlError} />
        </FormField>
        <FormField
          label="Events"
          description="Event types, or wildcards that also cover types added later."
          constraintText={covered}
          errorText={eventsError}
        >
          <Multiselect
            selectedOptions={selectedOptions}
            onChange={(e) => setEvents(e.detail.selectedOptions.map((o) => o.value!))}
            options={options}
            placeholder="Choose events"
            filteringType="auto"
            tokenLimit={6}
            deselectAriaLabel={(o) => `Remove ${o.label ?? o.value}`}
            invalid={!!eventsError}
            ariaLabel="Events"
          />
        </FormField>
        <FormField
          label="Description"
          description="Optional, e.g. the system that receives them."
          errorText={descriptionError}
        >
          <Input value={description} onChange={(e) => setDescription(e.detail.value)} invalid={!!descriptionError} />
        </FormField>
        {endpoint && (
          <Toggle checked={active} onChange={(e) => setActive(e.detail.checked)}>
            Active (a paused endpoint receives nothing)
          </Toggle>
        )}
        <ErrorAlert error={action.error} atFields={ENDPOINT_FIELDS} />
      </SpaceBetween>
    </Modal>
  );
}
