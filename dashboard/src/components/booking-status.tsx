import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { Booking } from '@messaging-platform/sdk';

/** A booking's status as an indicator; shared by the bookings and customer pages (each loads on its own). */
export function BookingStatus({ status }: { status: Booking['status'] }) {
  const types = {
    pending: 'pending',
    pending_payment: 'pending',
    confirmed: 'success',
    cancelled: 'stopped',
    completed: 'info',
    no_show: 'warning',
  } as const;
  return <StatusIndicator type={types[status]}>{status === 'pending_payment' ? 'awaiting payment' : status.replace('_', '-')}</StatusIndicator>;
}
