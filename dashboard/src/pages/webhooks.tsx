import { useMemo, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import DatePicker from '@cloudscape-design/components/date-picker';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import Tabs from '@cloudscape-design/components/tabs';
import TimeInput from '@cloudscape-design/components/time-input';
import Toggle from '@cloudscape-design/components/toggle';
import type { Delivery, MessagingClient, WebhookEndpoint } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { Empty, EmptyUnlessFailed } from '../components/common';
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
  endpointUrl,
  useDeliveryFilters,
} from '../components/deliveries';
import { ErrorAlert } from '../components/errors';
import { formatAgo, formatDateTime, isoDay, localInstant } from '../format';
import { follow, navigate, useLocation } from '../router';
import { EndpointActions, EndpointModal, SecretModal, useSetActive } from './webhook-endpoint';

type EndpointRow = WebhookEndpoint & { last?: Delivery | null };

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
  const { isAdmin } = useApp();
  const [selected, setSelected] = useState<EndpointRow[]>([]);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ header: string; url: string; secret: string } | null>(null);
  const reload = () => void endpoints.reload();
  const setActive = useSetActive(reload);
  // The row as last loaded, so the menu acts on the endpoint's current version.
  const current = endpoints.data?.find((e) => e.id === selected[0]?.id);

  return (
    <SpaceBetween size="l">
      {!isAdmin && (
        <Alert type="info">
          You can see the endpoints, with each address cut to its host (the rest is often the receiver&apos;s password);
          only admins of your organization can change them.
        </Alert>
      )}
      <ErrorAlert error={endpoints.error} action={<Button onClick={reload}>Retry</Button>} />
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
          itemSelectionLabel: (_s, item) => `Select ${endpointUrl(item)}`,
          allItemsSelectionLabel: () => 'Select all',
          tableLabel: 'Webhook endpoints',
        }}
        header={
          <Header
            variant="h2"
            counter={endpoints.data ? `(${endpoints.data.length})` : undefined}
            description="Open an endpoint to see every delivery made to it."
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button iconName="refresh" ariaLabel="Refresh endpoints" onClick={reload} />
                {isAdmin && (
                  <>
                    <EndpointActions
                      endpoint={current}
                      onChanged={reload}
                      onDeleted={() => {
                        setSelected([]);
                        reload();
                      }}
                    />
                    <Button variant="primary" onClick={() => setAdding(true)}>
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
            cell: (e) => (
              <Link href={`/settings/webhooks/endpoints/${e.id}`} onFollow={follow}>
                <EndpointUrl endpoint={e} />
              </Link>
            ),
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
                ariaLabel={`Active: ${endpointUrl(e)}`}
                onChange={(ev) => void setActive(e, ev.detail.checked)}
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
              action={isAdmin ? <Button onClick={() => setAdding(true)}>Add endpoint</Button> : undefined}
            >
              Add an HTTPS endpoint to receive your events as they happen.
            </Empty>
          </EmptyUnlessFailed>
        }
      />
      {adding && (
        <EndpointModal
          endpoint={null}
          onClose={() => setAdding(false)}
          onSaved={(saved, newSecret) => {
            setAdding(false);
            if (newSecret) setSecret({ header: 'Endpoint added', url: saved.url, secret: newSecret });
            reload();
          }}
        />
      )}
      {secret && <SecretModal {...secret} onClose={() => setSecret(null)} />}
    </SpaceBetween>
  );
}

const DELETED_ENDPOINT = 'Deleted endpoint';

/** Failed deliveries, a page at a time ("Load more"); the API applies the filters. */
function FailedDeliveries({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const { isAdmin } = useApp();
  const [endpoint, setEndpoint] = useState<SelectProps.Option>(ALL);
  const filters = useDeliveryFilters();
  // Each load (and each 15 s refresh) reads the pages shown so far, one request each, never more.
  const failed = useResource(
    async (client) => {
      const list = client.webhookDeliveries.list({
        status: 'failed',
        limit: DELIVERY_PAGE_SIZE,
        webhook_id: endpoint.value || undefined,
        ...filters.query,
      });
      return firstPages(list, filters.pages);
    },
    [endpoint.value, ...filters.deps],
    { pollMs: 15_000 },
  );
  const [recovering, setRecovering] = useState(false);
  const byId = useMemo(() => new Map(endpoints.map((e) => [e.id, e])), [endpoints]);
  const items = failed.data?.rows ?? [];
  const more = failed.data?.more ?? false;
  const filtered = !!endpoint.value || filters.active;
  // A deleted endpoint's failures stay listed: offer it as a filter too, by the id its rows carry.
  const endpointOptions = useMemo(() => {
    const deleted = new Set(items.map((d) => d.webhook_id).filter((id) => !byId.has(id)));
    if (endpoint.value && !byId.has(endpoint.value)) deleted.add(endpoint.value);
    return [
      ALL,
      ...endpoints.map((e) => ({ value: e.id, label: endpointUrl(e), description: e.description ?? undefined })),
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
            <FilterSelect
              label="Endpoint"
              ariaLabel="Filter by endpoint"
              selected={endpoint}
              options={endpointOptions}
              onChange={filters.narrow(setEndpoint)}
            />
            {filters.filters}
          </SpaceBetween>
        }
        columnDefinitions={[
          EVENT_COLUMN,
          {
            id: 'endpoint',
            header: 'Endpoint',
            cell: (d) => {
              const endpoint = byId.get(d.webhook_id);
              return endpoint ? (
                <EndpointUrl endpoint={endpoint} />
              ) : (
                <span title={d.webhook_id}>
                  {DELETED_ENDPOINT} <code>{d.webhook_id}</code>
                </span>
              );
            },
          },
          { id: 'failed_at', header: 'Failed', cell: (d) => formatDateTime(d.failed_at) },
          { id: 'attempts', header: 'Attempts', cell: (d) => d.attempts.length },
          { id: 'reason', header: 'Last error', cell: (d) => d.failure_reason ?? lastError(d) },
          { id: 'event_id', header: 'Event ID', cell: (d) => <code>{d.event_id}</code> },
        ]}
        footer={<LoadMoreDeliveries more={more} pages={filters.pages} onMore={filters.loadMore} />}
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
            options={[
              { value: '', label: 'All endpoints' },
              ...endpoints.map((e) => ({ value: e.id, label: endpointUrl(e) })),
            ]}
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
