import { useEffect, useRef, useState } from 'react';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { BadRequestError, type Customer, type MessagingClient } from '@messaging-platform/sdk';
import { useApp, isSessionOver } from '../context';

/** What a customer's number may look like as typed: digits with an optional +, spaces, dots, dashes, brackets. */
export const looksLikePhone = (text: string): boolean => /^\+?[\d\s().-]{8,30}$/.test(text.trim());

/** The customer with the number as typed (the API reads spaces and a missing + as the number's own). */
export const customerByPhone = (client: MessagingClient, text: string): Promise<Customer | null> =>
  client.customers.findByPhone(text.trim());

/**
 * Finds a customer by the phone number typed (one API read, `GET /customers?phone=`); the number may be
 * typed with spaces or without its +. `found` names the customer the page shows, with a way back (`onClear`).
 */
export function PhoneSearch({
  onFound,
  onClear,
  found,
  label = 'Customer',
}: {
  onFound: (customer: Customer) => void;
  onClear?: () => void;
  found?: string;
  label?: string;
}) {
  const { client, sessionEnded } = useApp();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  // Only the latest search counts: typing, clearing or another search makes an answer still on its way stale.
  const latest = useRef(0);
  // A filter set elsewhere on the page replaced the customer shown: the number typed no longer applies.
  const shown = useRef(found);
  useEffect(() => {
    if (shown.current && !found) {
      latest.current += 1;
      setTyped('');
      setProblem('');
    }
    shown.current = found;
  }, [found]);

  const find = async () => {
    if (!looksLikePhone(typed)) return setProblem('Type a phone number, e.g. +4915112345678.');
    const search = ++latest.current;
    setBusy(true);
    setProblem('');
    try {
      const customer = await customerByPhone(client, typed);
      if (search !== latest.current) return;
      if (customer) onFound(customer);
      else setProblem('No customer has this number.');
    } catch (error) {
      if (isSessionOver(error)) return sessionEnded();
      if (search !== latest.current) return;
      setProblem(
        error instanceof BadRequestError
          ? 'Type a phone number in international format.'
          : 'Could not search; try again.',
      );
    } finally {
      if (search === latest.current) setBusy(false);
    }
  };
  const clear = () => {
    latest.current += 1;
    setBusy(false);
    setTyped('');
    setProblem('');
    onClear?.();
  };

  return (
    <FormField label={label} errorText={problem} constraintText={found ? `Showing ${found}` : undefined}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void find();
        }}
      >
        <SpaceBetween direction="horizontal" size="xs">
          <Input
            type="search"
            inputMode="tel"
            value={typed}
            placeholder="+4915112345678"
            ariaLabel="Find a customer by phone number"
            clearAriaLabel="Clear the customer search"
            onChange={(e) => {
              latest.current += 1;
              setBusy(false);
              setTyped(e.detail.value);
              setProblem('');
              if (e.detail.value === '') onClear?.();
            }}
            invalid={!!problem}
          />
          <Button formAction="submit" loading={busy} disabled={busy}>
            Find
          </Button>
          {found && (
            <Button variant="link" onClick={clear}>
              Show everyone
            </Button>
          )}
        </SpaceBetween>
      </form>
    </FormField>
  );
}
