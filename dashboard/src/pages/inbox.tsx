import { useRef, useState } from 'react';
import Badge from '@cloudscape-design/components/badge';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import type { Conversation, Customer, MessageAnalysis, MessagingClient } from '@messaging-platform/sdk';
import { useApp, useOlderPages, useResource, useTeam } from '../context';
import { Empty, EmptyUnlessFailed, Freshness, LoadOlder } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { PhoneSearch } from '../components/phone-search';
import { customerContact, customerLabel, formatAgo, formatScore, formatWait } from '../format';
import { follow } from '../router';
import { changesInbox } from '../realtime';

const STATUSES: SelectProps.Option[] = [
  { value: '', label: 'All statuses' },
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'resolved', label: 'Resolved' },
];
const TAG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
type Assignee = 'anyone' | 'mine' | 'unassigned';
const ASSIGNEE_OPTIONS = [
  { id: 'anyone', text: 'Anyone' },
  { id: 'mine', text: 'Me' },
  { id: 'unassigned', text: 'Nobody' },
];
const POLL_MS = 10_000;
const PAGE_SIZE = 50;

type Row = Conversation & { sentiment?: MessageAnalysis['sentiment'] | null };

export const HANDOFF_REASONS: Record<string, string> = {
  request_human: 'asked for a person',
  complaint: 'complaint',
  negative_sentiment: 'unhappy customer',
};

export function SentimentBadge({ sentiment }: { sentiment: MessageAnalysis['sentiment'] | null | undefined }) {
  if (!sentiment) return null;
  const color = sentiment.label === 'negative' ? 'red' : sentiment.label === 'positive' ? 'green' : 'grey';
  return <Badge color={color}>{`${sentiment.label} ${formatScore(sentiment.score)}`}</Badge>;
}

export function StatusBadge({ status }: { status: Conversation['status'] }) {
  const color = status === 'open' ? 'blue' : status === 'resolved' ? 'green' : 'grey';
  return <Badge color={color}>{status}</Badge>;
}

/** Inbox: conversations, newest activity first, refreshed in the background. */
export function InboxPage() {
  const { client, me } = useApp();
  const [status, setStatus] = useState<SelectProps.Option>(STATUSES[0]!);
  // 'mine': the signed-in user's unresolved conversations (the API's assignee_id list, which takes no tag or
  // customer); 'unassigned': nobody's (assignee_id=none, which combines with every filter).
  const [assignee, setAssignee] = useState<Assignee>('anyone');
  const mine = assignee === 'mine';
  const [tagInput, setTagInput] = useState('');
  const [tag, setTag] = useState('');
  const [customer, setCustomer] = useState<{ id: string; label: string } | null>(null);
  const { nameOf } = useTeam();
  // The newest inbound message's sentiment, fetched once per new inbound message.
  const sentiments = useRef(new Map<string, { at: string | null; sentiment: MessageAnalysis['sentiment'] | null }>());
  const filters = {
    status: (status.value || undefined) as Conversation['status'] | undefined,
    tag: tag || undefined,
    customer_id: customer?.id,
    assignee_id: mine ? me.user_id : assignee === 'unassigned' ? 'none' : undefined,
    limit: PAGE_SIZE,
  };
  // A customer's conversations filter by customer_id, which the API combines with a status but not a tag.
  const showCustomer = (found: Customer) => {
    setCustomer({
      id: found.id,
      label: found.name ? `${found.name} (${customerContact(found)})` : customerContact(found),
    });
    setTag('');
    setTagInput('');
    if (mine) setAssignee('anyone');
  };
  const showAssignee = (shown: Assignee) => {
    setAssignee(shown);
    if (shown !== 'mine') return;
    setCustomer(null);
    setTag('');
    setTagInput('');
    if (status.value === 'resolved') setStatus(STATUSES[0]!);
  };
  // The first page is refreshed in the background; older pages are loaded on request and kept as loaded.
  const conversations = useResource(
    async (client) => {
      const list = await client.conversations.list(filters).page();
      const rows = [...list.data].sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at));
      await Promise.all(rows.slice(0, 25).map((c) => sentimentOf(client, c, sentiments.current)));
      return {
        rows: rows.map<Row>((c) => ({ ...c, sentiment: sentiments.current.get(c.id)?.sentiment })),
        nextCursor: list.nextCursor,
      };
    },
    [status.value, tag, customer?.id, assignee],
    { pollMs: POLL_MS, refreshOn: changesInbox },
  );
  const more = useOlderPages<Row>(
    (cursor) => client.conversations.list({ ...filters, ...(cursor ? { cursor } : {}) }).page(),
    conversations.data?.nextCursor ?? undefined,
    [status.value, tag, customer?.id, assignee],
  );
  const shown = conversations.data && more.merged(conversations.data.rows);
  const tagError = tagInput && !TAG.test(tagInput) ? 'Tags are lowercase letters and digits, joined by - or _.' : '';

  return (
    <ContentLayout
      header={
        <Header variant="h1" description="Every conversation with your customers; new messages appear as they arrive.">
          Inbox
        </Header>
      }
    >
      <SpaceBetween size="l">
        <ErrorAlert
          error={conversations.error}
          action={<Button onClick={() => void conversations.reload()}>Retry</Button>}
        />
        <Table
          wrapLines
          variant="container"
          items={shown ?? []}
          loading={conversations.loading && !conversations.data}
          footer={<LoadOlder more={more}>Load older conversations</LoadOlder>}
          loadingText="Loading conversations"
          trackBy="id"
          ariaLabels={{ tableLabel: 'Conversations' }}
          header={
            <Header
              variant="h2"
              counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}
              actions={
                <Button
                  iconName="refresh"
                  ariaLabel="Refresh conversations"
                  onClick={() => void conversations.reload()}
                />
              }
            >
              Conversations
            </Header>
          }
          filter={
            <SpaceBetween direction="horizontal" size="s">
              <FormField label="Assigned to">
                <SegmentedControl
                  label="Assigned to"
                  selectedId={assignee}
                  onChange={(e) => showAssignee(e.detail.selectedId as Assignee)}
                  options={ASSIGNEE_OPTIONS}
                />
              </FormField>
              <FormField label="Status">
                <Select
                  selectedOption={status}
                  onChange={(e) => setStatus(e.detail.selectedOption)}
                  options={STATUSES.map((o) =>
                    mine && o.value === 'resolved'
                      ? { ...o, disabled: true, disabledReason: 'Your list holds the conversations still open to you.' }
                      : o,
                  )}
                />
              </FormField>
              <FormField label="Tag" errorText={tagError}>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (tagError) return;
                    setTag(tagInput.trim());
                    if (tagInput.trim()) {
                      setCustomer(null);
                      if (mine) setAssignee('anyone');
                    }
                  }}
                >
                  <SpaceBetween direction="horizontal" size="xs">
                    <Input
                      type="search"
                      value={tagInput}
                      placeholder="e.g. vip"
                      ariaLabel="Filter by tag"
                      clearAriaLabel="Clear the tag filter"
                      onChange={(e) => {
                        setTagInput(e.detail.value);
                        if (e.detail.value === '') setTag('');
                      }}
                      invalid={!!tagError}
                    />
                    <Button formAction="submit">Filter</Button>
                  </SpaceBetween>
                </form>
              </FormField>
              <PhoneSearch
                // A tag or "Me" replaces any customer search: a new search box, without a stale choice.
                key={`${tag}:${mine}`}
                byName
                found={customer?.label}
                onFound={showCustomer}
                onClear={() => setCustomer(null)}
              />
            </SpaceBetween>
          }
          columnDefinitions={[
            {
              id: 'customer',
              header: 'Customer',
              isRowHeader: true,
              cell: (c) => (
                <Link href={`/inbox/${c.id}`} onFollow={follow}>
                  {customerLabel(c.customer)}
                </Link>
              ),
            },
            { id: 'phone', header: 'Phone', cell: (c) => customerContact(c.customer) },
            { id: 'status', header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
            {
              id: 'signals',
              header: 'Signals',
              cell: (c) => (
                <SpaceBetween direction="horizontal" size="xxs">
                  <WaitingBadge conversation={c} />
                  {c.handoff && (
                    <Badge color="red">{`Handoff: ${HANDOFF_REASONS[c.handoff.reason] ?? c.handoff.reason}`}</Badge>
                  )}
                  <SentimentBadge sentiment={c.sentiment} />
                  {c.priority !== 'normal' && (
                    <Badge color={c.priority === 'low' ? 'grey' : 'severity-high'}>{c.priority}</Badge>
                  )}
                </SpaceBetween>
              ),
            },
            { id: 'assignee', header: 'Assignee', cell: (c) => nameOf(c.assignee_id) || '—' },
            { id: 'tags', header: 'Tags', cell: (c) => (c.tags.length ? c.tags.join(', ') : '—') },
            { id: 'channel', header: 'Channel', cell: (c) => c.channel },
            { id: 'activity', header: 'Last activity', cell: (c) => formatAgo(c.last_activity_at) },
          ]}
          empty={
            <EmptyUnlessFailed resource={conversations}>
              {more.hasMore ? (
                // A filtered read stops after 1,000 conversations even when none of them matched.
                <Empty title="None among the latest conversations">
                  None of the most recent conversations matches; load older ones to look further.
                </Empty>
              ) : (
                <Empty
                  title={
                    status.value || tag || customer || assignee !== 'anyone'
                      ? 'No matching conversations'
                      : 'No conversations yet'
                  }
                >
                  {assignee === 'unassigned'
                    ? `Every conversation${customer || status.value || tag ? ' that matches' : ''} has someone assigned.`
                    : customer
                      ? `${customer.label} has no conversation${status.value ? ' with this status' : ''}.`
                      : mine
                        ? `Nothing${status.value ? ' with this status' : ''} is assigned to you right now.`
                        : status.value || tag
                          ? 'No conversation has this status or tag.'
                          : 'When a customer writes on WhatsApp or the sandbox channel, the conversation appears here.'}
                </Empty>
              )}
            </EmptyUnlessFailed>
          }
        />
        <Freshness resource={conversations} />
      </SpaceBetween>
    </ContentLayout>
  );
}

async function sentimentOf(
  client: MessagingClient,
  conversation: Conversation,
  cache: Map<string, { at: string | null; sentiment: MessageAnalysis['sentiment'] | null }>,
): Promise<void> {
  const cached = cache.get(conversation.id);
  // Analysis runs in the background: look again for a while after a new inbound message, then stop.
  const settled = !!cached?.sentiment || Date.now() - Date.parse(conversation.last_inbound_at ?? '') > 120_000;
  if (cached && cached.at === conversation.last_inbound_at && settled) return;
  if (!conversation.last_inbound_at) return void cache.set(conversation.id, { at: null, sentiment: null });
  try {
    const page = await client.conversations.messages.list(conversation.id, { limit: 10 }).page();
    const inbound = page.data.find((m) => m.direction === 'inbound');
    cache.set(conversation.id, { at: conversation.last_inbound_at, sentiment: inbound?.analysis?.sentiment ?? null });
  } catch {
    // A badge is optional: the list still shows.
  }
}

/**
 * A customer waiting for an answer: their message is the conversation's last, and it is open or pending.
 * The badge says for how long (as of the list's last refresh).
 */
function WaitingBadge({ conversation: c }: { conversation: Conversation }) {
  const waiting =
    (c.status === 'open' || c.status === 'pending') && c.last_inbound_at && c.last_inbound_at === c.last_message_at;
  if (!waiting) return null;
  return (
    <Badge color="blue">{`Waiting ${formatWait((Date.now() - Date.parse(c.last_inbound_at ?? '')) / 1000)}`}</Badge>
  );
}
