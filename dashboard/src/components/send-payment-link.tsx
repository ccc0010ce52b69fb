import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useAction, useApp } from '../context';
import { DialogFooter } from './common';
import { ErrorAlert, fieldError } from './errors';
import { toMinorUnits } from './payment-amount';

const PURPOSES = ['deposit', 'full', 'balance', 'no_show_fee', 'other'] as const;

/**
 * "Request payment" for one conversation: a button and its dialog, which makes a payment link and sends it
 * into the conversation as a message. Self-contained, so a conversation view mounts it with one line.
 */
export function SendPaymentLink({ conversationId, bookingId }: { conversationId: string; bookingId?: string }) {
  const { client, flash } = useApp();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [purpose, setPurpose] = useState<(typeof PURPOSES)[number]>('deposit');
  const action = useAction();
  const submit = async () => {
    const sent = await action.run(() =>
      client.payments.create({
        conversation_id: conversationId,
        ...(bookingId ? { booking_id: bookingId } : {}),
        purpose,
        amount: toMinorUnits(amount, currency),
        currency,
        send: true,
      }),
    );
    if (sent) {
      setOpen(false);
      setAmount('');
      flash({ type: 'success', content: 'The payment link is sent.' });
    }
  };
  return (
    <>
      <Button iconName="upload" onClick={() => setOpen(true)}>
        Request payment
      </Button>
      <Modal
        closeAriaLabel="Close dialog"
        visible={open}
        header="Request a payment"
        onDismiss={() => setOpen(false)}
        footer={
          <DialogFooter
            onCancel={() => setOpen(false)}
            onConfirm={() => void submit()}
            confirmText="Send link"
            busy={action.busy}
          />
        }
      >
        <SpaceBetween size="m">
          <ErrorAlert error={action.error} />
          <FormField label="Amount" errorText={fieldError(action.error, ['amount'], ['invalid_amount'])}>
            <Input value={amount} onChange={(e) => setAmount(e.detail.value)} inputMode="decimal" placeholder="25.00" />
          </FormField>
          <FormField label="Currency" errorText={fieldError(action.error, ['currency'], ['unsupported_currency'])}>
            <Input value={currency} onChange={(e) => setCurrency(e.detail.value.toUpperCase())} />
          </FormField>
          <FormField label="For">
            <Select
              selectedOption={{ value: purpose, label: purpose.replace(/_/g, ' ') }}
              options={PURPOSES.map((p) => ({ value: p, label: p.replace(/_/g, ' ') }))}
              onChange={(e) => setPurpose(e.detail.selectedOption.value as (typeof PURPOSES)[number])}
            />
          </FormField>
        </SpaceBetween>
      </Modal>
    </>
  );
}
