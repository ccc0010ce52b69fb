import { useState } from 'react';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { Payment } from '@messaging-platform/sdk';
import { useAction, useApp } from '../context';
import { DialogFooter } from './common';
import { ErrorAlert, fieldError } from './errors';
import { formatMoney, toMinorUnits } from './payment-amount';

const STATUS_TYPES = {
  pending: 'pending',
  succeeded: 'success',
  failed: 'error',
  expired: 'stopped',
  canceled: 'stopped',
  refunded: 'info',
  partially_refunded: 'info',
} as const;

export function PaymentStatus({ payment }: { payment: Pick<Payment, 'status'> }) {
  return <StatusIndicator type={STATUS_TYPES[payment.status]}>{payment.status.replace('_', ' ')}</StatusIndicator>;
}

/** Whether an admin may refund the payment: it was paid, and not all of it has been given back. */
export const isRefundable = (p: Pick<Payment, 'status'>) =>
  p.status === 'succeeded' || p.status === 'partially_refunded';

/** Refund (admins): the amount, by default everything left. */
export function RefundModal({
  payment,
  onClose,
  onDone,
}: {
  payment: Payment;
  onClose: () => void;
  onDone: () => void;
}) {
  const { client, flash } = useApp();
  const [amount, setAmount] = useState('');
  const action = useAction();
  const submit = async () => {
    const done = await action.run(() =>
      client.payments.refund(payment.id, amount ? { amount: toMinorUnits(amount, payment.currency) } : {}),
    );
    if (done) {
      flash({ type: 'success', content: `Refunded; ${formatMoney(done.amount_refunded, done.currency)} in all.` });
      onDone();
    }
  };
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Refund"
      onDismiss={onClose}
      footer={
        <DialogFooter onCancel={onClose} onConfirm={() => void submit()} confirmText="Refund" busy={action.busy} />
      }
    >
      <SpaceBetween size="m">
        <ErrorAlert error={action.error} />
        <FormField
          label="Amount"
          description={`Paid ${formatMoney(payment.amount, payment.currency)}, refunded ${formatMoney(payment.amount_refunded, payment.currency)}. Leave empty to refund the rest.`}
          errorText={fieldError(action.error, ['amount'], ['refund_exceeds_payment', 'invalid_amount'])}
        >
          <Input value={amount} onChange={(e) => setAmount(e.detail.value)} inputMode="decimal" />
        </FormField>
      </SpaceBetween>
    </Modal>
  );
}
