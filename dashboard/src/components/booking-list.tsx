import type { ReactNode } from 'react';
import Cards from '@cloudscape-design/components/cards';
import Table from '@cloudscape-design/components/table';
import type { Booking } from '@messaging-platform/sdk';
import { customerLabel, formatDateTime, formatTime } from '../format';
import { BookingStatus } from './booking-status';

const when = (b: Booking) => `${formatDateTime(b.start_at)} – ${formatTime(b.end_at)}`;

/**
 * The bookings of the period, one selectable at a time: a table on a desk, cards on a phone (one booking
 * under the other in time order, nothing to scroll sideways). The header carries the actions on the
 * selected booking in both.
 */
export function BookingList(props: {
  phone: boolean;
  items: Booking[];
  loading: boolean;
  selected: Booking[];
  onSelect: (selected: Booking[]) => void;
  header: ReactNode;
  empty: ReactNode;
}) {
  const shared = {
    items: props.items,
    loading: props.loading,
    loadingText: 'Loading bookings',
    trackBy: 'id',
    selectionType: 'single' as const,
    selectedItems: props.selected,
    onSelectionChange: (e: { detail: { selectedItems: Booking[] } }) => props.onSelect(e.detail.selectedItems),
    header: props.header,
    empty: props.empty,
  };
  const selectionLabel = (b: Booking) => `Select ${b.service} at ${formatDateTime(b.start_at)}`;
  if (props.phone)
    return (
      <Cards
        {...shared}
        variant="container"
        ariaLabels={{
          selectionGroupLabel: 'Booking selection',
          itemSelectionLabel: (_s, b) => selectionLabel(b),
          cardsLabel: 'Bookings',
        }}
        cardDefinition={{
          header: (b) => when(b),
          sections: [
            { id: 'service', header: 'Service', content: (b) => b.service },
            { id: 'customer', header: 'Customer', content: (b) => customerLabel(b.customer), width: 50 },
            { id: 'resource', header: 'Resource', content: (b) => b.resource_id ?? '—', width: 50 },
            { id: 'status', content: (b) => <BookingStatus status={b.status} /> },
          ],
        }}
        cardsPerRow={[{ cards: 1 }]}
      />
    );
  return (
    <Table
      {...shared}
      variant="container"
      ariaLabels={{
        selectionGroupLabel: 'Booking selection',
        itemSelectionLabel: (_s, b) => selectionLabel(b),
        allItemsSelectionLabel: () => 'Select all',
        tableLabel: 'Bookings',
      }}
      // Long services, names and resources wrap inside their columns, so every column stays in view.
      wrapLines
      columnDefinitions={[
        { id: 'start', header: 'When', cell: when, isRowHeader: true, minWidth: 220 },
        { id: 'service', header: 'Service', cell: (b) => b.service, minWidth: 180, maxWidth: 280 },
        { id: 'customer', header: 'Customer', cell: (b) => customerLabel(b.customer), minWidth: 120, maxWidth: 240 },
        { id: 'resource', header: 'Resource', cell: (b) => b.resource_id ?? '—', minWidth: 100, maxWidth: 200 },
        { id: 'status', header: 'Status', cell: (b) => <BookingStatus status={b.status} />, minWidth: 140 },
      ]}
    />
  );
}
