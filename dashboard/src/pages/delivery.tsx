import { useEffect, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { NotFoundError, type DeliveryAttempt } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { Empty, JsonBlock } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { formatDateTime, formatDateTimeSeconds } from '../format';
import { follow } from '../router';
import { DeliveryStatus, EndpointUrl, endpointUrl } from '../components/deliveries';

/** One delivery: its payload, the headers it is signed with, and every attempt; retry it. */
export function DeliveryPage({ id }: { id: string }) {
  const { client, isAdmin, flash } = useApp();
  // After a retry: the cycle it started, followed until it ends.
  const [watching, setWatching] = useState<number | null>(null);
  const delivery = useResource(
    async (c) => {
      const d = await c.webhookDeliveries.get(id);
      // A deleted endpoint is named by its id; any other error is the page's.
      const endpoint = await c.webhooks.get(d.webhook_id).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      return { ...d, endpoint };
    },
    [id],
    { pollMs: watching !== null ? 1500 : undefined },
  );
  const retry = useAction();
  const d = delivery.data;

  useEffect(() => {
    if (watching !== null && d && d.cycle >= watching && d.status !== 'pending') {
      setWatching(null);
      flash(
        d.status === 'succeeded'
          ? { type: 'success', content: 'The retried delivery succeeded.' }
          : { type: 'error', content: `The retried delivery ${d.status}.` },
      );
    }
  }, [watching, d, flash]);

  if (delivery.error && !d)
    return <ErrorAlert error={delivery.error} action={<Button onClick={() => void delivery.reload()}>Retry</Button>} />;
  if (!d)
    return (
      <Box textAlign="center" padding="xl">
        <Spinner /> Loading the delivery…
      </Box>
    );

  const cycleAttempts = d.attempts.slice(-Math.max(d.cycle_attempts, 0) || undefined);
  const lastAttempt = d.attempts[d.attempts.length - 1];
  const headers = [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'User-Agent', value: 'MessagingPlatform-Webhooks/1.0' },
    { name: 'webhook-id', value: d.event_id },
    {
      name: 'webhook-timestamp',
      value: lastAttempt ? `${Math.floor(Date.parse(lastAttempt.at) / 1000)} (the last attempt)` : 'the attempt time',
    },
    { name: 'webhook-signature', value: 'v1,<HMAC-SHA256 of id.timestamp.body with each active secret>' },
    { name: 'X-Service-Signature', value: 'the same value as webhook-signature' },
  ];

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={`${d.event_type} to ${d.endpoint ? endpointUrl(d.endpoint) : d.webhook_id}`}
          actions={
            isAdmin && (
              <Button
                variant="primary"
                disabled={d.status === 'pending' || d.status === 'succeeded'}
                loading={retry.busy || watching !== null}
                onClick={() =>
                  void retry
                    .run(() => client.webhookDeliveries.retry(d.id))
                    .then((replay) => {
                      if (!replay) return;
                      setWatching(replay.cycle);
                      void delivery.reload();
                    })
                }
              >
                Retry delivery
              </Button>
            )
          }
        >
          Delivery {d.id}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={retry.error} onDismiss={retry.clearError} />
        {/* Shown while the retry's cycle runs (it goes when the outcome is flashed). */}
        {watching !== null && <StatusIndicator type="in-progress">{`Retrying (cycle ${watching})…`}</StatusIndicator>}
        {delivery.error !== undefined && d && <ErrorAlert error={delivery.error} />}
        <Container header={<Header variant="h2">Summary</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              {
                label: 'Status',
                value: (
                  <span data-testid="delivery-status">
                    <DeliveryStatus status={d.status} />
                  </span>
                ),
              },
              { label: 'Event', value: `${d.event_type} (${d.event_id})` },
              {
                label: 'Endpoint',
                value: d.endpoint ? (
                  <Link href={`/settings/webhooks/endpoints/${d.webhook_id}`} onFollow={follow}>
                    <EndpointUrl endpoint={d.endpoint} />
                  </Link>
                ) : (
                  `Deleted endpoint ${d.webhook_id}`
                ),
              },
              { label: 'Cycle', value: `${d.cycle} (${d.cycle_attempts} attempts in this cycle)` },
              { label: 'Failed at', value: formatDateTime(d.failed_at) },
              { label: 'Succeeded at', value: formatDateTime(d.succeeded_at) },
              { label: 'Next attempt', value: formatDateTime(d.next_attempt_at) },
              { label: 'Failure reason', value: d.failure_reason ?? '—' },
            ]}
          />
        </Container>
        <Container header={<Header variant="h2">Payload</Header>}>
          <JsonBlock value={d.payload} label="Payload" />
        </Container>
        <Table
          wrapLines
          variant="container"
          items={headers}
          trackBy="name"
          ariaLabels={{ tableLabel: 'Signed headers' }}
          header={
            <Header
              variant="h2"
              description="Every attempt is signed anew (Standard Webhooks); the secret itself is never shown again."
            >
              Signed headers
            </Header>
          }
          columnDefinitions={[
            { id: 'name', header: 'Header', cell: (h) => <code>{h.name}</code>, isRowHeader: true },
            { id: 'value', header: 'Value', cell: (h) => h.value },
          ]}
        />
        <Table
          wrapLines
          variant="container"
          items={d.attempts.map((a, i) => ({ ...a, n: i + 1 }))}
          trackBy="n"
          ariaLabels={{ tableLabel: 'Attempts' }}
          header={
            <Header variant="h2" counter={`(${d.attempts.length})`}>
              Attempts
            </Header>
          }
          columnDefinitions={[
            { id: 'n', header: '#', cell: (a) => a.n, isRowHeader: true },
            { id: 'at', header: 'Time', cell: (a) => formatDateTimeSeconds(a.at) },
            { id: 'status', header: 'Status code', cell: (a) => <AttemptStatus attempt={a} /> },
            { id: 'duration', header: 'Duration', cell: (a) => `${Math.round(a.duration_ms)} ms` },
            { id: 'error', header: 'Error', cell: (a) => a.error ?? '—' },
            {
              id: 'body',
              header: 'Response body (excerpt)',
              cell: (a) => (a.response_body ? <code>{a.response_body.slice(0, 200)}</code> : '—'),
            },
          ]}
          empty={<Empty title="No attempts yet">The first attempt is on its way.</Empty>}
        />
        {cycleAttempts.length === 0 && d.status === 'pending' && (
          <StatusIndicator type="in-progress">Waiting for the next attempt</StatusIndicator>
        )}
      </SpaceBetween>
    </ContentLayout>
  );
}

function AttemptStatus({ attempt }: { attempt: DeliveryAttempt }) {
  if (attempt.status_code === null) return <StatusIndicator type="error">No response</StatusIndicator>;
  const ok = attempt.status_code >= 200 && attempt.status_code < 300;
  return <StatusIndicator type={ok ? 'success' : 'error'}>{attempt.status_code}</StatusIndicator>;
}
