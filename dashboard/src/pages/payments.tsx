import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { Payment } from '@messaging-platform/sdk';
import { useApp, useResource } from '../context';
import { Empty, EmptyUnlessFailed } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { formatMoney } from '../components/payment-amount';
import { isRefundable, PaymentStatus, RefundModal } from '../components/payment-status';
import { formatDateTime } from '../format';

const STATUSES = ['pending', 'succeeded', 'failed', 'expired', 'canceled', 'refunded', 'partially_refunded'] as const;
/** Payments: every link, newest first, by status and booking; admins refund from here. */
export function PaymentsPage() {
  const { isAdmin } = useApp();
  const [status, setStatus] = useState<string>('');
  const [bookingId, setBookingId] = useState('');
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const payments = useResource(
    (c) =>
      c.payments
        .list({
          limit: 50,
          ...(status ? { status: status as Payment['status'] } : {}),
          ...(/^bkg_[0-9A-Z]{26}$/.test(bookingId) ? { booking_id: bookingId } : {}),
        })
        .page(),
    [status, bookingId],
  );
  return (
    <ContentLayout
      header={
        <Header variant="h1" description="Payment links and deposits, with where each stands.">
          Payments
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={payments.error} action={<Button onClick={() => void payments.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={payments.data?.data ?? []}
          loading={payments.loading && !payments.data}
          loadingText="Loading payments"
          trackBy="id"
          ariaLabels={{ tableLabel: 'Payments' }}
          filter={
            <SpaceBetween direction="horizontal" size="xs">
              <Select
                ariaLabel="Status"
                selectedOption={{ value: status, label: status ? status.replace('_', ' ') : 'Any status' }}
                options={[
                  { value: '', label: 'Any status' },
                  ...STATUSES.map((s) => ({ value: s, label: s.replace('_', ' ') })),
                ]}
                onChange={(e) => setStatus(e.detail.selectedOption.value ?? '')}
              />
              <Input
                ariaLabel="Booking id"
                placeholder="Booking id (bkg_…)"
                value={bookingId}
                onChange={(e) => setBookingId(e.detail.value.trim())}
              />
            </SpaceBetween>
          }
          header={<Header variant="h2">Payments</Header>}
          columnDefinitions={[
            { id: 'amount', header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency), isRowHeader: true },
            { id: 'status', header: 'Status', cell: (p) => <PaymentStatus payment={p} /> },
            { id: 'purpose', header: 'For', cell: (p) => p.purpose.replace(/_/g, ' ') },
            {
              id: 'refunded',
              header: 'Refunded',
              cell: (p) => (p.amount_refunded ? formatMoney(p.amount_refunded, p.currency) : '—'),
            },
            { id: 'booking', header: 'Booking', cell: (p) => p.booking_id ?? '—' },
            {
              id: 'link',
              header: 'Link',
              cell: (p) =>
                p.status === 'pending' ? (
                  <Link href={p.link} external>
                    Open
                  </Link>
                ) : (
                  '—'
                ),
            },
            { id: 'created', header: 'Created', cell: (p) => formatDateTime(p.created_at) },
            ...(isAdmin
              ? [
                  {
                    id: 'actions',
                    header: 'Actions',
                    cell: (p: Payment) =>
                      isRefundable(p) && (
                        <Button variant="inline-link" onClick={() => setRefunding(p)} ariaLabel={`Refund ${p.id}`}>
                          Refund
                        </Button>
                      ),
                  },
                ]
              : []),
          ]}
          empty={
            <EmptyUnlessFailed resource={payments}>
              <Empty title="No payments">Book with a deposit, or request a payment from a conversation.</Empty>
            </EmptyUnlessFailed>
          }
        />
      </SpaceBetween>
      {refunding && (
        <RefundModal
          payment={refunding}
          onClose={() => setRefunding(null)}
          onDone={() => {
            setRefunding(null);
            void payments.reload();
          }}
        />
      )}
    </ContentLayout>
  );
}
