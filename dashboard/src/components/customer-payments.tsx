import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import type { Booking, Payment } from '@messaging-platform/sdk';
import { useAction, useApp, useResource } from '../context';
import { formatDateTime } from '../format';
import type { RealtimeMessage } from '../realtime';
import { follow } from '../router';
import { ErrorAlert } from './errors';
import { formatMoney } from './payment-amount';
import { isRefundable, PaymentStatus, RefundModal } from './payment-status';

/** How many of the customer's payments the side panel shows, newest first; the Payments page has them all. */
const SHOWN = 5;

/** What a payment is for, in words. */
const PURPOSES: Record<Payment['purpose'], string> = {
  deposit: 'Deposit',
  full: 'Full prepayment',
  balance: 'Balance',
  no_show_fee: 'No-show fee',
  other: 'Payment',
};

/** A payment event about one of this customer's payments (payment.* events carry the payment). */
const changesPaymentsOf =
  (customerId: string) =>
  (message: RealtimeMessage): boolean =>
    'data' in message &&
    message.type.startsWith('payment.') &&
    (message.data as { payment?: { customer_id?: string | null } }).payment?.customer_id === customerId;

/**
 * The inbox side panel's payments of the conversation's customer: each with its status, amount and booking;
 * an open link can be sent into its conversation again, and admins refund what was paid. Read afresh when a
 * payment event about this customer arrives.
 */
export function CustomerPayments({ customerId }: { customerId: string }) {
  const { client, flash, isAdmin } = useApp();
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const payments = useResource(
    async (c) => {
      const page = await c.payments.list({ customer_id: customerId, limit: SHOWN }).page();
      // Each payment's booking, for its service and time (at most SHOWN reads, in parallel).
      const ids = [...new Set(page.data.flatMap((p) => (p.booking_id ? [p.booking_id] : [])))];
      const bookings = await Promise.all(ids.map((id) => c.bookings.get(id).catch(() => undefined)));
      return {
        data: page.data,
        more: page.hasMore,
        bookings: new Map(bookings.flatMap((b) => (b ? [[b.id, b] as const] : []))),
      };
    },
    [customerId],
    { refreshOn: changesPaymentsOf(customerId) },
  );
  const resend = useAction();
  const send = async (p: Payment) => {
    if (await resend.run(() => client.payments.send(p.id)))
      flash({ type: 'success', content: `The ${formatMoney(p.amount, p.currency)} link is sent again.` });
  };
  const list = payments.data?.data ?? [];
  return (
    <Container
      header={
        <Header
          variant="h3"
          actions={
            <Link href="/payments" variant="secondary" fontSize="body-s" onFollow={follow}>
              All payments
            </Link>
          }
        >
          Payments
        </Header>
      }
    >
      <SpaceBetween size="s">
        <ErrorAlert error={payments.error} action={<Button onClick={() => void payments.reload()}>Retry</Button>} />
        <ErrorAlert error={resend.error} onDismiss={resend.clearError} />
        {payments.loading && !payments.data ? (
          <Spinner />
        ) : list.length === 0 ? (
          <Box color="text-status-inactive">None</Box>
        ) : (
          <ul className="payment-list" aria-label="Payments of this customer">
            {list.map((p) => (
              <PaymentItem
                key={p.id}
                payment={p}
                booking={p.booking_id ? payments.data?.bookings.get(p.booking_id) : undefined}
                busy={resend.busy}
                onResend={() => void send(p)}
                onRefund={isAdmin && isRefundable(p) ? () => setRefunding(p) : undefined}
              />
            ))}
          </ul>
        )}
        {payments.data?.more && <Box variant="small">Older payments are on the Payments page.</Box>}
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
    </Container>
  );
}

/** One payment: amount and status, what it is for, and what can be done with it. */
function PaymentItem({
  payment: p,
  booking,
  busy,
  onResend,
  onRefund,
}: {
  payment: Payment;
  booking: Booking | undefined;
  busy: boolean;
  onResend: () => void;
  onRefund: (() => void) | undefined;
}) {
  const amount = formatMoney(p.amount, p.currency);
  const purpose = PURPOSES[p.purpose];
  const forWhat = booking
    ? `${booking.service} \u00b7 ${formatDateTime(booking.start_at)}`
    : p.booking_id
      ? 'a booking'
      : (p.description ?? 'no booking');
  return (
    <li className="payment-item" aria-label={`${amount} ${purpose.toLowerCase()}, ${p.status.replace('_', ' ')}`}>
      <div className="payment-top">
        <strong>{amount}</strong>
        <PaymentStatus payment={p} />
      </div>
      <Box variant="small">
        {`${purpose} for ${forWhat}`}
        {p.amount_refunded > 0 && ` \u00b7 ${formatMoney(p.amount_refunded, p.currency)} refunded`}
      </Box>
      {((p.status === 'pending' && p.conversation_id) || onRefund) && (
        <SpaceBetween direction="horizontal" size="xs">
          {p.status === 'pending' && p.conversation_id && (
            <Button
              variant="inline-link"
              disabled={busy}
              onClick={onResend}
              ariaLabel={`Send link again: ${amount} ${purpose.toLowerCase()}`}
            >
              Send link again
            </Button>
          )}
          {onRefund && (
            <Button variant="inline-link" onClick={onRefund} ariaLabel={`Refund: ${amount} ${purpose.toLowerCase()}`}>
              Refund
            </Button>
          )}
        </SpaceBetween>
      )}
    </li>
  );
}
