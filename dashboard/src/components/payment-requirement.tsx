import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { CreateBookingParams } from '@messaging-platform/sdk';
import { toMinorUnits } from './payment-amount';

/**
 * What a new booking is to be paid with, as the booking form holds it: the default (what the payment
 * settings require for the service), none, a deposit or the full price (then an amount as typed, and a currency).
 */
export interface PaymentChoice {
  kind: 'service' | 'none' | 'deposit' | 'full';
  amount: string;
  currency: string;
}

export const NO_PAYMENT_CHOSEN: PaymentChoice = { kind: 'service', amount: '', currency: 'EUR' };

const OPTIONS: { value: PaymentChoice['kind']; label: string; description?: string }[] = [
  { value: 'service', label: 'Default', description: 'What the payment settings ask for this kind of booking' },
  { value: 'none', label: 'No payment' },
  { value: 'deposit', label: 'Deposit', description: 'Paid through a link before the booking is confirmed' },
  { value: 'full', label: 'Full prepayment', description: 'The whole price, paid through a link first' },
];

/** Why the choice cannot be sent, in words ('' when it can). */
export function paymentChoiceProblem(choice: PaymentChoice): string {
  if (choice.kind !== 'deposit' && choice.kind !== 'full') return '';
  if (!/^[A-Za-z]{3}$/.test(choice.currency.trim())) return 'A currency code, such as EUR.';
  let minor: number;
  try {
    minor = toMinorUnits(choice.amount, choice.currency.trim());
  } catch {
    return 'A currency code, such as EUR.';
  }
  return Number.isFinite(minor) && minor > 0 ? '' : 'An amount above zero, such as 20.00.';
}

/** The choice as POST /bookings takes it: nothing (the service's requirement), `null` (none), or the payment. */
export function paymentParam(choice: PaymentChoice): Pick<CreateBookingParams, 'payment'> {
  if (choice.kind === 'service') return {};
  if (choice.kind === 'none') return { payment: null };
  const currency = choice.currency.trim().toUpperCase();
  return { payment: { purpose: choice.kind, amount: toMinorUnits(choice.amount, currency), currency } };
}

/** The booking form's payment fields: the choice, and for a deposit or prepayment its amount and currency. */
export function PaymentRequirementField({
  value,
  onChange,
  errorText,
}: {
  value: PaymentChoice;
  onChange: (value: PaymentChoice) => void;
  errorText?: string;
}) {
  const chosen = OPTIONS.find((o) => o.value === value.kind) ?? OPTIONS[0]!;
  const asksForMoney = value.kind === 'deposit' || value.kind === 'full';
  return (
    <SpaceBetween size="s">
      <FormField
        label="Payment"
        description="A deposit or prepayment holds the slot until it is paid; unpaid, the booking is cancelled when the link expires."
        errorText={asksForMoney ? undefined : errorText}
      >
        <Select
          selectedOption={chosen}
          options={OPTIONS}
          onChange={(e) => onChange({ ...value, kind: e.detail.selectedOption.value as PaymentChoice['kind'] })}
        />
      </FormField>
      {asksForMoney && (
        <SpaceBetween direction="horizontal" size="s">
          <FormField label={value.kind === 'deposit' ? 'Deposit' : 'Price'} errorText={errorText}>
            <Input
              value={value.amount}
              onChange={(e) => onChange({ ...value, amount: e.detail.value })}
              inputMode="decimal"
              placeholder="20.00"
              invalid={!!errorText}
            />
          </FormField>
          <FormField label="Currency">
            <Input
              value={value.currency}
              onChange={(e) => onChange({ ...value, currency: e.detail.value.toUpperCase() })}
              placeholder="EUR"
            />
          </FormField>
        </SpaceBetween>
      )}
    </SpaceBetween>
  );
}
