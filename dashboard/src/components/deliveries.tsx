import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Link from '@cloudscape-design/components/link';
import type { TableProps } from '@cloudscape-design/components/table';
import type { Delivery, PagedList, WebhookEndpoint } from '@messaging-platform/sdk';
import { EVENT_TYPES } from '../events';
import { follow } from '../router';

/** An endpoint's URL as shown: an agent gets only its origin (the rest is often the receiver's token). */
export const endpointUrl = (e: Pick<WebhookEndpoint, 'url' | 'url_redacted'>): string =>
  e.url_redacted ? `${e.url}…` : e.url;

/** An endpoint's URL in a wrapping span; a shortened one says why. */
export function EndpointUrl({ endpoint }: { endpoint: Pick<WebhookEndpoint, 'url' | 'url_redacted'> }) {
  return (
    <span className="url" title={endpoint.url_redacted ? 'Only admins see the whole address.' : undefined}>
      {endpointUrl(endpoint)}
    </span>
  );
}

/** Deliveries per request, and how many pages "Load more" reads at most. */
export const DELIVERY_PAGE_SIZE = 100;
export const MAX_DELIVERY_PAGES = 10;

export const ALL: SelectProps.Option = { value: '', label: 'All' };
/** Narrowed by the event's time, as recovery is. */
export const PERIODS: SelectProps.Option[] = [
  { value: '', label: 'Any time' },
  { value: '3600', label: 'Last hour' },
  { value: '86400', label: 'Last 24 hours' },
  { value: '604800', label: 'Last 7 days' },
];

/** The `since` a period option stands for, counted back from now. */
export const sinceOf = (period: SelectProps.Option): string | undefined =>
  period.value ? new Date(Date.now() - Number(period.value) * 1000).toISOString() : undefined;

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

/** The last attempt's outcome in a few words. */
export function lastError(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return '—';
  return last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'No response');
}

/**
 * The first `pages` pages of a delivery list, one request each and never more: every refresh reads again
 * what is shown, so a retried delivery changes its row in place.
 */
export async function firstPages(
  list: PagedList<Delivery>,
  pages: number,
): Promise<{ rows: Delivery[]; more: boolean }> {
  const rows: Delivery[] = [];
  let more = false;
  let read = 0;
  for await (const page of list.pages()) {
    rows.push(...page.data);
    more = page.hasMore;
    if (++read >= pages) break;
  }
  return { rows, more };
}

/** A delivery table's footer: "Load more" while there are more, up to MAX_DELIVERY_PAGES. */
export function LoadMoreDeliveries({ more, pages, onMore }: { more: boolean; pages: number; onMore: () => void }) {
  if (!more) return null;
  return (
    <Box textAlign="center">
      {pages < MAX_DELIVERY_PAGES ? (
        <Button onClick={onMore}>Load more</Button>
      ) : (
        <Box color="text-body-secondary">
          The newest {(MAX_DELIVERY_PAGES * DELIVERY_PAGE_SIZE).toLocaleString('en')} are shown: narrow the filters to
          find older ones.
        </Box>
      )}
    </Box>
  );
}

/** One filter of a delivery table: a labelled select. */
export function FilterSelect({
  label,
  ariaLabel,
  selected,
  options,
  onChange,
}: {
  label: string;
  ariaLabel: string;
  selected: SelectProps.Option;
  options: SelectProps.Options;
  onChange: (option: SelectProps.Option) => void;
}) {
  return (
    <FormField label={label}>
      <Select
        selectedOption={selected}
        onChange={(e) => onChange(e.detail.selectedOption)}
        options={options}
        ariaLabel={ariaLabel}
      />
    </FormField>
  );
}

/** A delivery table's first column: the event type, opening the delivery. */
export const EVENT_COLUMN: TableProps.ColumnDefinition<Delivery> = {
  id: 'event',
  header: 'Event',
  isRowHeader: true,
  cell: (d) => (
    <Link href={`/settings/webhooks/deliveries/${d.id}`} onFollow={follow}>
      {d.event_type}
    </Link>
  ),
};

/**
 * A delivery table's filters and how many pages it shows: the event type and time here, others (status,
 * endpoint) through `narrow`. Any filter change starts again from the first page.
 */
export function useDeliveryFilters() {
  const [eventType, setEventType] = useState<SelectProps.Option>(ALL);
  const [period, setPeriod] = useState<SelectProps.Option>(PERIODS[0]!);
  const [pages, setPages] = useState(1);
  const narrow = (set: (option: SelectProps.Option) => void) => (option: SelectProps.Option) => {
    setPages(1);
    set(option);
  };
  return {
    pages,
    loadMore: () => setPages((n) => n + 1),
    narrow,
    /** The API's parameters for these filters. */
    query: { event_type: EVENT_TYPES.find((t) => t === eventType.value), since: sinceOf(period) },
    /** What a load depends on. */
    deps: [eventType.value, period.value, pages],
    active: !!(eventType.value || period.value),
    /** The two filters' fields, to place beside others (an array, so a horizontal SpaceBetween spaces each). */
    filters: [
      <FilterSelect
        key="event-type"
        label="Event type"
        ariaLabel="Filter by event type"
        selected={eventType}
        options={[ALL, ...EVENT_TYPES.map((t) => ({ value: t, label: t }))]}
        onChange={narrow(setEventType)}
      />,
      <FilterSelect
        key="event-time"
        label="Event time"
        ariaLabel="Filter by time"
        selected={period}
        options={PERIODS}
        onChange={narrow(setPeriod)}
      />,
    ],
  };
}
