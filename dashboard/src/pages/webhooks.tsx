import { useMemo, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import ContentLayout from '@cloudscape-design/components/content-layout';
import CopyToClipboard from '@cloudscape-design/components/copy-to-clipboard';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import Multiselect from '@cloudscape-design/components/multiselect';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import Tabs from '@cloudscape-design/components/tabs';
import TimeInput from '@cloudscape-design/components/time-input';
import Toggle from '@cloudscape-design/components/toggle';
import type { Delivery, MessagingClient, WebhookEndpoint } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { ConfirmModal, Empty, EmptyUnlessFailed } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';

/** The endpoint form's fields, where the API's field errors show. */
const ENDPOINT_FIELDS = ['url', 'events', 'description'];
import { EVENT_GROUPS, EVENT_TYPES, type EventFilter } from '../events';
import { formatAgo, formatDateTime, isoDay, localInstant } from '../format';
import { follow, navigate, useLocation } from '../router';

type EndpointRow = WebhookEndpoint & { last?: Delivery | null };

export function DeliveryStatus({ status }: { status: Delivery['status'] | undefined }) {
  switch (status) {
    case 'succeeded':
      return <StatusIndicator type="success">Succeeded</StatusIndicator>;
    case 'failed':
      return <StatusIndicator type="error">Failed</StatusIndicator>;
    case 'pending':
      return <StatusIndicator type="in-progress">Retrying</StatusIndicator>;
    case 'cancelled':
      return <StatusIndicator type="stopped">Cancelled</StatusIndicator>;
    default:
      return <StatusIndicator type="info">No deliveries yet</StatusIndicator>;
  }
}

async function loadEndpoints(client: MessagingClient): Promise<EndpointRow[]> {
  const endpoints = await client.webhooks.list({ limit: 100 }).toArray({ max: 200 });
  return Promise.all(
    endpoints.map(async (endpoint) => {
      const page = await client.webhooks.deliveries(endpoint.id, { limit: 1 }).page();
      return { ...endpoint, last: page.data[0] ?? null };
    }),
  );
}

/** Settings › Webhooks: endpoints, and the failed deliveries across them. */
export function WebhooksPage() {
  const { search } = useLocation();
  const tab = search.get('tab') === 'failed' ? 'failed' : 'endpoints';
  const endpoints = useResource(loadEndpoints, []);
  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Signed HTTPS deliveries of your events, retried after 1, 5, 25, 125 and 625 seconds."
        >
          Webhooks
        </Header>
      }
    >
      <Tabs
        activeTabId={tab}
        onChange={(e) =>
          navigate(e.detail.activeTabId === 'failed' ? '/settings/webhooks?tab=failed' : '/settings/webhooks', {
            replace: true,
          })
        }
        tabs={[
          { id: 'endpoints', label: 'Endpoints', content: <Endpoints endpoints={endpoints} /> },
          {
            id: 'failed',
            label: 'Failed deliveries',
            content: <FailedDeliveries endpoints={endpoints.data ?? []} />,
          },
        ]}
      />
    </ContentLayout>
  );
}

function Endpoints({ endpoints }: { endpoints: ReturnType<typeof useResource<EndpointRow[]>> }) {
  const { client, isAdmin, flash } = useApp();
  const [selected, setSelected] = useState<EndpointRow[]>([]);
  const [editing, setEditing] = useState<EndpointRow | 'new' | null>(null);
  const [secret, setSecret] = useState<{ header: string; url: string; secret: string } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const action = useAction();
  const current = selected[0];

  const toggleActive = async (endpoint: EndpointRow, active: boolean) => {
    const updated = await action.run(() =>
      client.webhooks.update(endpoint.id, { is_active: active }, { ifMatch: endpoint.version }),
    );
    if (updated) flash({ type: 'success', content: `${updated.url} is ${active ? 'active' : 'paused'}.` });
    else if (action.error) flash({ type: 'error', content: 'The endpoint could not be changed.' });
    void endpoints.reload();
  };

  const onAction = async (id: string) => {
    if (!current) return;
    if (id === 'edit') setEditing(current);
    if (id === 'rotate' || id === 'delete') setConfirm(id);
    if (id === 'test') {
      const sent = await action.run(() => client.webhooks.test(current.id));
      if (sent)
        flash({
          type: 'success',
          content: `A webhook.test event is on its way to ${current.url} (delivery ${sent.delivery_id}).`,
        });
      setTimeout(() => void endpoints.reload(), 2000);
    }
  };

  return (
    <SpaceBetween size="l">
      {!isAdmin && (
        <Alert type="info">You can see the endpoints; only admins of your organization can change them.</Alert>
      )}
      <ErrorAlert error={endpoints.error} action={<Button onClick={() => void endpoints.reload()}>Retry</Button>} />
      <ErrorAlert error={action.error} onDismiss={action.clearError} />
      <Table
        wrapLines
        variant="container"
        items={endpoints.data ?? []}
        loading={endpoints.loading && !endpoints.data}
        loadingText="Loading endpoints"
        trackBy="id"
        selectionType={isAdmin ? 'single' : undefined}
        selectedItems={selected}
        onSelectionChange={(e) => setSelected(e.detail.selectedItems)}
        ariaLabels={{
          selectionGroupLabel: 'Endpoint selection',
          itemSelectionLabel: (_s, item) => `Select ${item.url}`,
          allItemsSelectionLabel: () => 'Select all',
          tableLabel: 'Webhook endpoints',
        }}
        header={
          <Header
            variant="h2"
            counter={endpoints.data ? `(${endpoints.data.length})` : undefined}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel="Refresh endpoints" onClick={() => void endpoints.reload()} />
                {isAdmin && (
                  <>
                    <ButtonDropdown
                      disabled={!current}
                      onItemClick={(e) => void onAction(e.detail.id)}
                      items={[
                        { id: 'edit', text: 'Edit' },
                        { id: 'test', text: 'Send test event' },
                        { id: 'rotate', text: 'Rotate secret' },
                        { id: 'delete', text: 'Delete' },
                      ]}
                    >
                      Actions
                    </ButtonDropdown>
                    <Button variant="primary" onClick={() => setEditing('new')}>
                      Add endpoint
                    </Button>
                  </>
                )}
              </SpaceBetween>
            }
          >
            Endpoints
          </Header>
        }
        columnDefinitions={[
          {
            id: 'url',
            header: 'URL',
            cell: (e) => <span className="url">{e.url}</span>,
            isRowHeader: true,
            minWidth: 180,
          },
          { id: 'events', header: 'Events', cell: (e) => e.events.join(', ') },
          {
            id: 'active',
            header: 'Active',
            minWidth: 110,
            cell: (e) => (
              <Toggle
                checked={e.is_active}
                disabled={!isAdmin}
                ariaLabel={`Active: ${e.url}`}
                onChange={(ev) => void toggleActive(e, ev.detail.checked)}
              >
                {e.is_active ? 'Active' : 'Paused'}
              </Toggle>
            ),
          },
          { id: 'description', header: 'Description', cell: (e) => e.description ?? '—' },
          {
            id: 'last',
            header: 'Last delivery',
            cell: (e) => (
              <SpaceBetween size="xxxs">
                <DeliveryStatus status={e.last?.status} />
                {e.last && (
                  <Box variant="small">
                    {e.last.event_type}, {formatAgo(e.last.updated_at)}
                  </Box>
                )}
              </SpaceBetween>
            ),
          },
        ]}
        empty={
          <EmptyUnlessFailed resource={endpoints}>
            <Empty
              title="No endpoints"
              action={isAdmin ? <Button onClick={() => setEditing('new')}>Add endpoint</Button> : undefined}
            >
              Add an HTTPS endpoint to receive your events as they happen.
            </Empty>
          </EmptyUnlessFailed>
        }
      />
      {editing && (
        <EndpointModal
          endpoint={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, newSecret) => {
            setEditing(null);
            setSelected([]);
            if (newSecret) setSecret({ header: 'Endpoint added', url: saved.url, secret: newSecret });
            else flash({ type: 'success', content: `${saved.url} is saved.` });
            void endpoints.reload();
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
          if (!current) return;
          if (confirm === 'delete')
            void action
              .run(async () => {
                await client.webhooks.delete(current.id);
                return true;
              })
              .then((ok) => {
                if (!ok) return;
                flash({ type: 'success', content: `${current.url} is deleted; its delivery history stays readable.` });
                setConfirm(null);
                setSelected([]);
                void endpoints.reload();
              });
          else
            void action
              .run(() => client.webhooks.rotateSecret(current.id))
              .then((rotated) => {
                if (!rotated) return;
                setConfirm(null);
                setSecret({ header: 'Secret rotated', url: rotated.url, secret: rotated.webhook_secret });
                void endpoints.reload();
              });
        }}
      >
        {confirm === 'delete' ? (
          <Box variant="p">
            Delete <b>{current?.url}</b>? It receives nothing more, and its pending retries stop.
          </Box>
        ) : (
          <Box variant="p">
            Make a new signing secret for <b>{current?.url}</b>? The current secret keeps signing too for 24 hours, so
            you can roll the new one out.
          </Box>
        )}
      </ConfirmModal>
    </SpaceBetween>
  );
}

function SecretModal({
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
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header={header}
      onDismiss={onClose}
      footer={
        <Box float="right">
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Alert type="warning" header="Copy the signing secret now">
          It is shown this once. Your receiver verifies every delivery to {url} with it (Standard Webhooks).
        </Alert>
        <span className="secret" data-testid="webhook-secret">
          <CopyToClipboard
            variant="inline"
            textToCopy={secret}
            copyButtonAriaLabel="Copy signing secret"
            copySuccessText="Secret copied"
            copyErrorText="Secret failed to copy"
          />
        </span>
      </SpaceBetween>
    </Modal>
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

function EndpointModal({
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
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" loading={action.busy} onClick={() => void submit()}>
              {endpoint ? 'Save' : 'Add endpoint'}
            </Button>
          </SpaceBetween>
        </Box>
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

const ALL: SelectProps.Option = { value: '', label: 'All' };
const DELETED_ENDPOINT = 'Deleted endpoint';
/** Narrowed by the event's time, as recovery is. */
const PERIODS: SelectProps.Option[] = [
  { value: '', label: 'Any time' },
  { value: '3600', label: 'Last hour' },
  { value: '86400', label: 'Last 24 hours' },
  { value: '604800', label: 'Last 7 days' },
];

/** Failed deliveries per page; "Load more" adds pages up to MAX_PAGES. The API applies the filters. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

function FailedDeliveries({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const { isAdmin } = useApp();
  const [endpoint, setEndpoint] = useState<SelectProps.Option>(ALL);
  const [eventType, setEventType] = useState<SelectProps.Option>(ALL);
  const [period, setPeriod] = useState<SelectProps.Option>(PERIODS[0]!);
  const [pages, setPages] = useState(1);
  // Each load (and each 15 s refresh) reads the pages shown so far, one request each, never more.
  const failed = useResource(
    async (client) => {
      const list = client.webhookDeliveries.list({
        status: 'failed',
        limit: PAGE_SIZE,
        webhook_id: endpoint.value || undefined,
        event_type: EVENT_TYPES.find((t) => t === eventType.value),
        since: period.value ? new Date(Date.now() - Number(period.value) * 1000).toISOString() : undefined,
      });
      const rows: Delivery[] = [];
      let more = false;
      let read = 0;
      for await (const page of list.pages()) {
        rows.push(...page.data);
        more = page.hasMore;
        if (++read >= pages) break;
      }
      return { rows, more };
    },
    [endpoint.value, eventType.value, period.value, pages],
    { pollMs: 15_000 },
  );
  // A new filter starts again from its first page.
  const narrowBy =
    (set: (option: SelectProps.Option) => void) =>
    ({ detail }: { detail: SelectProps.ChangeDetail }) => {
      setPages(1);
      set(detail.selectedOption);
    };
  const [recovering, setRecovering] = useState(false);
  const byId = useMemo(() => new Map(endpoints.map((e) => [e.id, e])), [endpoints]);
  const items = failed.data?.rows ?? [];
  const more = failed.data?.more ?? false;
  const filtered = !!(endpoint.value || eventType.value || period.value);
  // A deleted endpoint's failures stay listed: offer it as a filter too, by the id its rows carry.
  const endpointOptions = useMemo(() => {
    const deleted = new Set(items.map((d) => d.webhook_id).filter((id) => !byId.has(id)));
    if (endpoint.value && !byId.has(endpoint.value)) deleted.add(endpoint.value);
    return [
      ALL,
      ...endpoints.map((e) => ({ value: e.id, label: e.url, description: e.description ?? undefined })),
      ...[...deleted].map((id) => ({ value: id, label: DELETED_ENDPOINT, description: id })),
    ];
  }, [endpoints, byId, items, endpoint.value]);

  return (
    <SpaceBetween size="l">
      <ErrorAlert error={failed.error} action={<Button onClick={() => void failed.reload()}>Retry</Button>} />
      <Table
        wrapLines
        variant="container"
        items={items}
        loading={failed.loading && !failed.data}
        loadingText="Loading failed deliveries"
        trackBy="id"
        ariaLabels={{ tableLabel: 'Failed deliveries' }}
        header={
          <Header
            variant="h2"
            counter={failed.data ? `(${items.length}${more ? '+' : ''})` : undefined}
            description="Deliveries whose six attempts all failed, newest event first. Open one to see its payload and attempts."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel="Refresh failed deliveries" onClick={() => void failed.reload()} />
                {isAdmin && (
                  <Button disabled={endpoints.length === 0} onClick={() => setRecovering(true)}>
                    Recover all since…
                  </Button>
                )}
              </SpaceBetween>
            }
          >
            Failed deliveries
          </Header>
        }
        filter={
          <SpaceBetween direction="horizontal" size="s">
            <FormField label="Endpoint">
              <Select
                selectedOption={endpoint}
                onChange={narrowBy(setEndpoint)}
                options={endpointOptions}
                ariaLabel="Filter by endpoint"
              />
            </FormField>
            <FormField label="Event type">
              <Select
                selectedOption={eventType}
                onChange={narrowBy(setEventType)}
                options={[ALL, ...EVENT_TYPES.map((t) => ({ value: t, label: t }))]}
                ariaLabel="Filter by event type"
              />
            </FormField>
            <FormField label="Event time">
              <Select
                selectedOption={period}
                onChange={narrowBy(setPeriod)}
                options={PERIODS}
                ariaLabel="Filter by time"
              />
            </FormField>
          </SpaceBetween>
        }
        columnDefinitions={[
          {
            id: 'event',
            header: 'Event',
            isRowHeader: true,
            cell: (d) => (
              <Link href={`/settings/webhooks/deliveries/${d.id}`} onFollow={follow}>
                {d.event_type}
              </Link>
            ),
          },
          {
            id: 'endpoint',
            header: 'Endpoint',
            cell: (d) =>
              byId.get(d.webhook_id)?.url ? (
                <span className="url">{byId.get(d.webhook_id)?.url}</span>
              ) : (
                <span title={d.webhook_id}>
                  {DELETED_ENDPOINT} <code>{d.webhook_id}</code>
                </span>
              ),
          },
          { id: 'failed_at', header: 'Failed', cell: (d) => formatDateTime(d.failed_at) },
          { id: 'attempts', header: 'Attempts', cell: (d) => d.attempts.length },
          { id: 'reason', header: 'Last error', cell: (d) => d.failure_reason ?? lastError(d) },
          { id: 'event_id', header: 'Event ID', cell: (d) => <code>{d.event_id}</code> },
        ]}
        footer={
          more && (
            <Box textAlign="center">
              {pages < MAX_PAGES ? (
                <Button onClick={() => setPages((n) => n + 1)}>Load more</Button>
              ) : (
                <Box color="text-body-secondary">
                  The newest {(MAX_PAGES * PAGE_SIZE).toLocaleString('en')} are shown: narrow the filters to find older
                  ones.
                </Box>
              )}
            </Box>
          )
        }
        empty={
          <EmptyUnlessFailed resource={failed}>
            <Empty title={filtered ? 'No matches' : 'No failed deliveries'}>
              {filtered ? 'No failed delivery matches these filters.' : 'Every delivery reached its endpoint.'}
            </Empty>
          </EmptyUnlessFailed>
        }
      />
      {recovering && (
        <RecoverModal
          endpoints={endpoints}
          onClose={() => {
            setRecovering(false);
            void failed.reload();
          }}
        />
      )}
    </SpaceBetween>
  );
}

export function lastError(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return '—';
  return last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'No response');
}

function RecoverModal({ endpoints, onClose }: { endpoints: WebhookEndpoint[]; onClose: () => void }) {
  const { client } = useApp();
  const yesterday = new Date(Date.now() - 86_400_000);
  const [day, setDay] = useState(isoDay(yesterday));
  const [time, setTime] = useState('00:00');
  const [target, setTarget] = useState<SelectProps.Option>({ value: '', label: 'All endpoints' });
  const [progress, setProgress] = useState<{ done: number; total: number; replayed: number; skipped: number } | null>(
    null,
  );
  const action = useAction();
  const since = localInstant(day, time);
  const invalid = !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(since.getTime()) || since.getTime() > Date.now();

  const start = async () => {
    if (invalid) return;
    const chosen = target.value ? endpoints.filter((e) => e.id === target.value) : endpoints;
    const state = { done: 0, total: chosen.length, replayed: 0, skipped: 0 };
    setProgress({ ...state });
    await action.run(async () => {
      for (const endpoint of chosen) {
        // Up to 1,000 a call: call again while there are more.
        for (let more = true; more;) {
          const result = await client.webhooks.recover(endpoint.id, { since: since.toISOString() });
          state.replayed += result.replayed;
          state.skipped += result.skipped;
          more = result.has_more;
          setProgress({ ...state });
        }
        state.done += 1;
        setProgress({ ...state });
      }
    });
  };
  const finished = progress && progress.done === progress.total;

  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Recover failed deliveries"
      onDismiss={onClose}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onClose}>
              {finished ? 'Close' : 'Cancel'}
            </Button>
            {!finished && (
              <Button variant="primary" loading={action.busy} disabled={invalid} onClick={() => void start()}>
                Recover
              </Button>
            )}
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box variant="p">
          Replays every failed delivery of events since the time you choose, each with the full retry schedule.
        </Box>
        <FormField label="Endpoint">
          <Select
            selectedOption={target}
            onChange={(e) => setTarget(e.detail.selectedOption)}
            options={[{ value: '', label: 'All endpoints' }, ...endpoints.map((e) => ({ value: e.id, label: e.url }))]}
          />
        </FormField>
        <FormField label="Since" errorText={invalid ? 'Choose a time in the past.' : ''}>
          <SpaceBetween direction="horizontal" size="xs">
            <DatePicker
              value={day}
              onChange={(e) => setDay(e.detail.value)}
              placeholder="YYYY/MM/DD"
              ariaLabel="Since day"
              openCalendarAriaLabel={(d) => `Choose a day${d ? `, selected ${d}` : ''}`}
            />
            <TimeInput value={time} onChange={(e) => setTime(e.detail.value)} format="hh:mm" ariaLabel="Since time" />
          </SpaceBetween>
        </FormField>
        {progress && (
          <ProgressBar
            value={progress.total ? (progress.done / progress.total) * 100 : 100}
            label="Recovery"
            description={`${progress.done} of ${progress.total} endpoints`}
            status={action.error ? 'error' : finished ? 'success' : 'in-progress'}
            resultText={`${progress.replayed} deliveries replayed, ${progress.skipped} already replayed`}
            additionalInfo={`${progress.replayed} replayed so far`}
          />
        )}
        <ErrorAlert error={action.error} />
      </SpaceBetween>
    </Modal>
  );
}
