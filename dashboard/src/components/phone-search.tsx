import { useEffect, useRef, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { BadRequestError, type Customer, type MessagingClient } from '@messaging-platform/sdk';
import { useApp, isSessionOver } from '../context';
import { customerContact } from '../format';

/** What a customer's number may look like as typed: digits with an optional +, spaces, dots, dashes, brackets. */
export const looksLikePhone = (text: string): boolean => /^\+?[\d\s().-]{8,30}$/.test(text.trim());

/** The customer with the number as typed (the API reads spaces and a missing + as the number's own). */
export const customerByPhone = (client: MessagingClient, text: string): Promise<Customer | null> =>
  client.customers.findByPhone(text.trim());

/** Whether text has something a name search can match: letters or digits once accents are set aside. */
export const hasNameText = (text: string): boolean =>
  /[\p{L}\p{N}]/u.test(text.normalize('NFKD').replace(/\p{M}/gu, ''));

/** Text as a name search sends it: trimmed, at most the 100 characters the API takes (never half a character). */
export const nameQuery = (text: string): string => Array.from(text.trim()).slice(0, 100).join('').trim();

/** How many customers a name search offers to choose from. */
const NAME_CHOICES = 5;

/**
 * Finds a customer by the phone number typed (one API read, `GET /customers?phone=`); the number may be
 * typed with spaces or without its +. With `byName`, other text finds those whose name (or a later word of it) starts with it
 * (`GET /customers?name=`): one is shown at once, several are offered to choose from. `found` names the
 * customer the page shows, with a way back (`onClear`).
 */
export function PhoneSearch({
  onFound,
  onClear,
  found,
  label = 'Customer',
  byName = false,
}: {
  onFound: (customer: Customer) => void;
  onClear?: () => void;
  found?: string;
  label?: string;
  byName?: boolean;
}) {
  const { client, sessionEnded } = useApp();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [choices, setChoices] = useState<{ customers: Customer[]; more: boolean } | null>(null);
  // Only the latest search counts: typing, clearing or another search makes an answer still on its way stale.
  const latest = useRef(0);
  // A filter set elsewhere on the page replaced the customer shown: the number typed no longer applies.
  const shown = useRef(found);
  useEffect(() => {
    if (shown.current && !found) {
      latest.current += 1;
      setTyped('');
      setProblem('');
      setChoices(null);
    }
    shown.current = found;
  }, [found]);

  const find = async () => {
    const phone = looksLikePhone(typed);
    if (!phone && !(byName && hasNameText(typed)))
      return setProblem(byName ? 'Type a name or a phone number.' : 'Type a phone number, e.g. +4915112345678.');
    const search = ++latest.current;
    setBusy(true);
    setProblem('');
    setChoices(null);
    try {
      if (!phone) {
        const page = await client.customers.list({ name: nameQuery(typed), limit: NAME_CHOICES }).page();
        if (search !== latest.current) return;
        const [only] = page.data;
        if (page.data.length === 1 && only) onFound(only);
        else if (page.data.length === 0)
          setProblem(`No customer's name, nor a later word of it, starts with “${typed.trim()}”.`);
        else setChoices({ customers: page.data, more: page.hasMore });
        return;
      }
      const customer = await customerByPhone(client, typed);
      if (search !== latest.current) return;
      if (customer) onFound(customer);
      else setProblem('No customer has this number.');
    } catch (error) {
      if (isSessionOver(error)) return sessionEnded();
      if (search !== latest.current) return;
      setProblem(
        error instanceof BadRequestError
          ? phone
            ? 'Type a phone number in international format.'
            : 'Type a name or a phone number.'
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
    setChoices(null);
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
            inputMode={byName ? 'text' : 'tel'}
            value={typed}
            placeholder={byName ? 'Name or +4915112345678' : '+4915112345678'}
            ariaLabel={byName ? 'Find a customer by name or phone number' : 'Find a customer by phone number'}
            clearAriaLabel="Clear the customer search"
            onChange={(e) => {
              latest.current += 1;
              setBusy(false);
              setTyped(e.detail.value);
              setProblem('');
              setChoices(null);
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
      {choices && (
        <Box margin={{ top: 'xs' }}>
          <div role="group" aria-label="Customers whose name matches" aria-live="polite">
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <span>Which one?</span>
              {choices.customers.map((c) => (
                <Button
                  key={c.id}
                  variant="inline-link"
                  onClick={() => {
                    setChoices(null);
                    onFound(c);
                  }}
                >
                  {c.name ? `${c.name} (${customerContact(c)})` : customerContact(c)}
                </Button>
              ))}
              {choices.more && <span>and more: type more of the name.</span>}
            </SpaceBetween>
          </div>
        </Box>
      )}
    </FormField>
  );
}
