import { useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import type { Customer } from '@messaging-platform/sdk';
import { useAction, useApp, useOlderPages, useResource, useSettled } from '../context';
import { Empty, EmptyUnlessFailed, Freshness, LoadOlder, DialogFooter } from '../components/common';
import { ErrorAlert, fieldError } from '../components/errors';
import { hasNameText, nameQuery, PhoneSearch } from '../components/phone-search';
import { customerContact, customerLabel, formatAgo, formatDateTime, formatTime } from '../format';
import { customerHref, follow, navigate } from '../router';
import { BookingStatus } from '../components/booking-status';
import { StatusBadge } from './inbox';

const PAGE_SIZE = 50;
/** A customer page lists this many of their conversations and bookings (newest first). */
const RELATED = 50;

/** Typing pauses this long before a name search is sent (each search counts against the hourly limit). */
const SEARCH_PAUSE_MS = 300;
/** The longest name search the API takes. */
const NAME_SEARCH_MAX = 100;

/**
 * Customers: everyone who wrote in or was booked, newest first, or those whose name (or a later word of it) starts with the text
 * typed (A to Z); one found by phone number opens.
 */
export function CustomersPage() {
  const { client } = useApp();
  const [typed, setTyped] = useState('');
  // Only accents or punctuation: nothing a name search could match, so the whole list stays.
  const searched = hasNameText(typed) ? nameQuery(typed) : '';
  const name = useSettled(searched, searched ? SEARCH_PAUSE_MS : 0);
  const filters = { limit: PAGE_SIZE, ...(name ? { name } : {}) };
  const customers = useResource((c) => c.customers.list(filters).page(), [name], { pollMs: 30_000 });
  const more = useOlderPages<Customer>(
    (cursor) => client.customers.list({ ...filters, ...(cursor ? { cursor } : {}) }).page(),
    customers.data?.hasMore ? customers.data.nextCursor : undefined,
    [name],
  );
  const shown = customers.data && more.merged(customers.data.data);

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description="Everyone who has written in or been booked. A customer is added by their first message, conversation or booking."
        >
          Customers
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={customers.error} action={<Button onClick={() => void customers.reload()}>Retry</Button>} />
        <Table
          wrapLines
          variant="container"
          items={shown ?? []}
          loading={customers.loading && !customers.data}
          loadingText="Loading customers"
          trackBy="id"
          ariaLabels={{ tableLabel: 'Customers' }}
          header={
            <Header
              variant="h2"
              counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}
              description={name ? 'Whose name, or a later word of it, starts with the text; A to Z.' : 'Newest first.'}
            >
              {name ? `Customers matching “${name}…”` : 'All customers'}
            </Header>
          }
          filter={
            <SpaceBetween direction="horizontal" size="s">
              <FormField label="Name">
                <TextFilter
                  filteringText={typed}
                  filteringPlaceholder="e.g. Maria"
                  filteringAriaLabel="Find customers by name"
                  filteringClearAriaLabel="Clear the name search"
                  onChange={(e) => setTyped(e.detail.filteringText.slice(0, NAME_SEARCH_MAX))}
                />
              </FormField>
              <PhoneSearch label="Phone number" onFound={(c) => navigate(customerHref(c.id))} />
            </SpaceBetween>
          }
          footer={<LoadOlder more={more}>{name ? 'Load more customers' : 'Load older customers'}</LoadOlder>}
          columnDefinitions={[
            {
              id: 'name',
              header: 'Name',
              isRowHeader: true,
              cell: (c) => (
                <Link href={customerHref(c.id)} onFollow={follow}>
                  {customerLabel(c)}
                </Link>
              ),
            },
            { id: 'phone', header: 'Phone', cell: (c) => customerContact(c) },
            { id: 'since', header: 'First contact', cell: (c) => formatDateTime(c.created_at) },
          ]}
          empty={
            <EmptyUnlessFailed resource={customers}>
              {name ? (
                <Empty title="No matching customers">
                  No customer's name, nor a later word of it, starts with “{name}”. A customer without a name is found
                  by phone number.
                </Empty>
              ) : (
                <Empty title="No customers yet">
                  When a customer writes on WhatsApp or the sandbox channel, or is booked, they appear here.
                </Empty>
              )}
            </EmptyUnlessFailed>
          }
        />
        <Freshness resource={customers} />
      </SpaceBetween>
    </ContentLayout>
  );
}

/** One customer: their number, their conversations and their bookings. */
export function CustomerPage({ id }: { id: string }) {
  const customer = useResource(
    async (c) => {
      const [found, conversations, bookings] = await Promise.all([
        c.customers.get(id),
        c.conversations.list({ customer_id: id, limit: RELATED }).page(),
        c.bookings.list({ customer_id: id, limit: RELATED }).page(),
      ]);
      return { customer: found, conversations, bookings };
    },
    [id],
    { pollMs: 30_000 },
  );
  const [renaming, setRenaming] = useState(false);
  const data = customer.data;
  if (customer.error && !data)
    return <ErrorAlert error={customer.error} action={<Button onClick={() => void customer.reload()}>Retry</Button>} />;
  if (!data)
    return (
      <Box textAlign="center" padding="xl">
        <Spinner /> Loading the customer…
      </Box>
    );
  const { customer: c, conversations, bookings } = data;
  // "50+" when a list goes on past what this page shows.
  const count = (page: { data: unknown[]; hasMore: boolean }) => `(${page.data.length}${page.hasMore ? '+' : ''})`;

  return (
    <ContentLayout
      header={
        <Header variant="h1" actions={<Button onClick={() => setRenaming(true)}>Edit name</Button>}>
          {customerLabel(c)}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert error={customer.error} />
        <Container header={<Header variant="h2">Details</Header>}>
          <KeyValuePairs
            columns={3}
            items={[
              { label: 'Phone', value: c.phone ?? '—' },
              ...(c.whatsapp_user_id
                ? [{ label: 'WhatsApp', value: c.whatsapp_username ? `@${c.whatsapp_username}` : c.whatsapp_user_id }]
                : []),
              { label: 'Name', value: c.name ?? '—' },
              { label: 'First contact', value: formatDateTime(c.created_at) },
            ]}
          />
        </Container>
        <Table
          wrapLines
          variant="container"
          items={conversations.data}
          trackBy="id"
          ariaLabels={{ tableLabel: 'Conversations of the customer' }}
          header={
            <Header variant="h2" counter={count(conversations)}>
              Conversations
            </Header>
          }
          columnDefinitions={[
            {
              id: 'activity',
              header: 'Last activity',
              isRowHeader: true,
              cell: (v) => (
                <Link href={`/inbox/${v.id}`} onFollow={follow}>
                  {formatAgo(v.last_activity_at)}
                </Link>
              ),
            },
            { id: 'status', header: 'Status', cell: (v) => <StatusBadge status={v.status} /> },
            { id: 'channel', header: 'Channel', cell: (v) => v.channel },
            { id: 'tags', header: 'Tags', cell: (v) => (v.tags.length ? v.tags.join(', ') : '—') },
          ]}
          empty={<Empty title="No conversations">This customer has not written in yet.</Empty>}
        />
        <Table
          wrapLines
          variant="container"
          items={bookings.data}
          trackBy="id"
          ariaLabels={{ tableLabel: 'Bookings of the customer' }}
          header={
            <Header variant="h2" counter={count(bookings)} description="Latest start first.">
              Bookings
            </Header>
          }
          columnDefinitions={[
            {
              id: 'start',
              header: 'When',
              isRowHeader: true,
              cell: (b) => `${formatDateTime(b.start_at)} – ${formatTime(b.end_at)}`,
            },
            { id: 'service', header: 'Service', cell: (b) => b.service },
            { id: 'resource', header: 'Resource', cell: (b) => b.resource_id ?? '—' },
            { id: 'status', header: 'Status', cell: (b) => <BookingStatus status={b.status} /> },
          ]}
          empty={<Empty title="No bookings">Nothing has been booked for this customer.</Empty>}
        />
        <Freshness resource={customer} />
      </SpaceBetween>
      {renaming && (
        <NameModal
          customer={c}
          onClose={() => setRenaming(false)}
          onSaved={() => {
            setRenaming(false);
            void customer.reload();
          }}
        />
      )}
    </ContentLayout>
  );
}

/** Renames a customer (empty clears the name), guarded by the version shown. */
function NameModal({ customer, onClose, onSaved }: { customer: Customer; onClose: () => void; onSaved: () => void }) {
  const { client, flash } = useApp();
  const [name, setName] = useState(customer.name ?? '');
  const action = useAction();
  const error = fieldError(action.error, ['name']);
  const save = async () => {
    const next = name.trim() || null;
    if (next === customer.name) return onClose();
    const saved = await action.run(() =>
      client.customers.update(customer.id, { name: next }, { ifMatch: customer.version }),
    );
    if (!saved) return;
    flash({
      type: 'success',
      content: saved.name
        ? `${customerContact(customer)} is now ${saved.name}, in their conversations and bookings too.`
        : `${customerContact(customer)} has no name now.`,
    });
    onSaved();
  };
  return (
    <Modal
      closeAriaLabel="Close dialog"
      visible
      header="Edit name"
      onDismiss={onClose}
      footer={<DialogFooter onCancel={onClose} busy={action.busy} onConfirm={() => void save()} confirmText="Save" />}
    >
      <SpaceBetween size="m">
        <FormField
          label="Name"
          description={`The name your team knows ${customerContact(customer)} by. Leave it empty to remove it.`}
          errorText={error}
        >
          <Input
            value={name}
            onChange={(e) => setName(e.detail.value)}
            invalid={!!error}
            onKeyDown={(e) => {
              if (e.detail.key === 'Enter') void save();
            }}
          />
        </FormField>
        <ErrorAlert error={action.error} atFields={['name']} />
      </SpaceBetween>
    </Modal>
  );
}
