import { useEffect, useRef, useState } from 'react';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import type { Conversation, Customer, MessageAnalysis, MessagingClient } from '@messaging-platform/sdk';
import { useApp, useOlderPages, useResource, useTeam } from '../context';
import { Empty, EmptyUnlessFailed, Freshness, LoadOlder } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { PhoneSearch } from '../components/phone-search';
import { customerContact, customerLabel, formatWait, formatWhen } from '../format';
import { changesInbox } from '../realtime';
import { navigate } from '../router';
import { sentimentDetail, sentimentWord } from '../words';
import { ConversationPanes } from './conversation';

const STATUSES: SelectProps.Option[] = [
  { value: '', label: 'All statuses' },
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'resolved', label: 'Resolved' },
];
const SORTS: SelectProps.Option[] = [
  { value: 'attention', label: 'Needs attention first', description: 'Handoffs, then the longest waits' },
  { value: 'newest', label: 'Newest activity first' },
];
const TAG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
type Assignee = 'anyone' | 'mine' | 'unassigned';
const ASSIGNEE_OPTIONS = [
  { id: 'anyone', text: 'Anyone' },
  { id: 'mine', text: 'Me' },
  { id: 'unassigned', text: 'Nobody' },
];
/** The slow background refresh used only while no realtime connection pushes events. */
const FALLBACK_POLL_MS = 10_000;
const PAGE_SIZE = 50;
/** How many of my conversations the tab title counts from (the API's largest page). */
const MINE_COUNTED = 100;

type Row = Conversation & { sentiment?: MessageAnalysis['sentiment'] | null };

export const HANDOFF_REASONS: Record<string, string> = {
  request_human: 'asked for a person',
  complaint: 'complaint',
  negative_sentiment: 'unhappy customer',
};

/** The customer's mood in a word ("upset"), with the score in its tooltip. */
export function SentimentBadge({ sentiment }: { sentiment: MessageAnalysis['sentiment'] | null | undefined }) {
  if (!sentiment) return null;
  const color = sentiment.label === 'negative' ? 'red' : sentiment.label === 'positive' ? 'green' : 'grey';
  return (
    <span className="sentiment" title={sentimentDetail(sentiment)} data-testid="sentiment">
      <Badge color={color}>{sentimentWord(sentiment)}</Badge>
    </span>
  );
}

export function StatusBadge({ status }: { status: Conversation['status'] }) {
  const color = status === 'open' ? 'blue' : status === 'resolved' ? 'green' : 'grey';
  return <Badge color={color}>{status}</Badge>;
}

/** A customer waiting for an answer: their message is the conversation's last, and it is open or pending. */
export const isWaiting = (c: Conversation): boolean =>
  (c.status === 'open' || c.status === 'pending') && !!c.last_inbound_at && c.last_inbound_at === c.last_message_at;

/** Handoffs first, then the customers who have waited longest, then the newest activity. */
export function byAttention(a: Conversation, b: Conversation): number {
  const handoff = Number(!!b.handoff && b.status !== 'resolved') - Number(!!a.handoff && a.status !== 'resolved');
  if (handoff) return handoff;
  const waiting = Number(isWaiting(b)) - Number(isWaiting(a));
  if (waiting) return waiting;
  if (isWaiting(a) && isWaiting(b)) return (a.last_inbound_at ?? '').localeCompare(b.last_inbound_at ?? '');
  return b.last_activity_at.localeCompare(a.last_activity_at);
}

/**
 * The inbox: the conversation list beside the open conversation (its thread with the composer, and a side
 * panel with the customer, their bookings, status, assignee, tags and the AI's reading). On a phone the
 * list and the conversation take the screen in turn. `selected` is the open conversation (from the URL).
 */
export function InboxPage({ selected }: { selected?: string }) {
  const { client, me } = useApp();
  const [status, setStatus] = useState<SelectProps.Option>(STATUSES[0]!);
  const [sort, setSort] = useState<SelectProps.Option>(SORTS[0]!);
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
  const conversations = useResource(
    async (client) => {
      const list = await client.conversations.list(filters).page();
      const rows = [...list.data];
      await Promise.all(rows.slice(0, 25).map((c) => sentimentOf(client, c, sentiments.current)));
      return {
        rows: rows.map<Row>((c) => ({ ...c, sentiment: sentiments.current.get(c.id)?.sentiment })),
        nextCursor: list.nextCursor,
      };
    },
    [status.value, tag, customer?.id, assignee],
    { pollMs: FALLBACK_POLL_MS, refreshOn: changesInbox },
  );
  // My open conversations, for the tab's title and the notifications of new customer messages.
  const assignedToMe = useResource(
    (c) => c.conversations.list({ assignee_id: me.user_id, limit: MINE_COUNTED }).page(),
    [me.user_id],
    { pollMs: FALLBACK_POLL_MS, refreshOn: changesInbox },
  );
  // Pushed conversation events refresh the list and my count (refreshOn); the open conversation refreshes itself.
  useUnreadTitle(assignedToMe.data?.data);
  useNewMessageNotifications(conversations.data?.rows, selected);

  const more = useOlderPages<Row>(
    (cursor) => client.conversations.list({ ...filters, ...(cursor ? { cursor } : {}) }).page(),
    conversations.data?.nextCursor ?? undefined,
    [status.value, tag, customer?.id, assignee],
  );
  const loaded = conversations.data && more.merged(conversations.data.rows);
  const shown = loaded && [...loaded].sort(sort.value === 'attention' ? byAttention : newestFirst);
  const tagError = tagInput && !TAG.test(tagInput) ? 'Tags are lowercase letters and digits, joined by - or _.' : '';
  const filtered = !!(status.value || tag || customer || assignee !== 'anyone');

  return (
    <div className="inbox-frame">
      <div className={`inbox${selected ? ' has-selection' : ''}`}>
        <section className="inbox-list" aria-labelledby="inbox-heading">
          <SpaceBetween size="s">
            <Header
              variant="h1"
              headingTagOverride="h1"
              counter={shown ? `(${shown.length}${more.hasMore ? '+' : ''})` : undefined}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <NotificationsButton />
                  <Button
                    iconName="refresh"
                    ariaLabel="Refresh conversations"
                    onClick={() => void conversations.reload()}
                  />
                </SpaceBetween>
              }
            >
              <span id="inbox-heading">Inbox</span>
            </Header>
            <SegmentedControl
              label="Assigned to"
              selectedId={assignee}
              onChange={(e) => showAssignee(e.detail.selectedId as Assignee)}
              options={ASSIGNEE_OPTIONS}
            />
            <div className="inbox-filters">
              <Select
                ariaLabel="Filter by status"
                selectedOption={status}
                onChange={(e) => setStatus(e.detail.selectedOption)}
                options={STATUSES.map((o) =>
                  mine && o.value === 'resolved'
                    ? { ...o, disabled: true, disabledReason: 'Your list holds the conversations still open to you.' }
                    : o,
                )}
              />
              <Select
                ariaLabel="Sort"
                selectedOption={sort}
                onChange={(e) => setSort(e.detail.selectedOption)}
                options={SORTS}
              />
            </div>
            <ExpandableSection
              headerText={
                tag || customer
                  ? `More filters (${[tag && `tag ${tag}`, customer?.label].filter(Boolean).join(', ')})`
                  : 'More filters'
              }
              variant="footer"
            >
              <SpaceBetween size="s">
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
            </ExpandableSection>
            <ErrorAlert
              error={conversations.error}
              action={<Button onClick={() => void conversations.reload()}>Retry</Button>}
            />
            {conversations.loading && !conversations.data ? (
              <Box textAlign="center" padding="m">
                <Spinner /> Loading conversations
              </Box>
            ) : shown && shown.length > 0 ? (
              <ul className="conversation-list" aria-label="Conversations">
                {shown.map((c) => (
                  <ConversationCard
                    key={c.id}
                    conversation={c}
                    current={c.id === selected}
                    assignee={nameOf(c.assignee_id)}
                  />
                ))}
              </ul>
            ) : (
              <EmptyUnlessFailed resource={conversations}>
                {more.hasMore ? (
                  // A filtered read stops after 1,000 conversations even when none of them matched.
                  <Empty title="None among the latest conversations">
                    None of the most recent conversations matches; load older ones to look further.
                  </Empty>
                ) : (
                  <Empty title={filtered ? 'No matching conversations' : 'No conversations yet'}>
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
            )}
            <LoadOlder more={more}>Load older conversations</LoadOlder>
            <Freshness resource={conversations} />
          </SpaceBetween>
        </section>
        {selected ? (
          <ConversationPanes
            key={selected}
            id={selected}
            onBack={() => navigate('/inbox')}
            onChanged={() => {
              void conversations.reload();
              void assignedToMe.reload();
            }}
          />
        ) : (
          <section className="inbox-thread inbox-placeholder" aria-label="Conversation">
            <Box textAlign="center" color="text-status-inactive" padding="xxl">
              Choose a conversation to read it and reply.
            </Box>
          </section>
        )}
      </div>
    </div>
  );
}

const newestFirst = (a: Conversation, b: Conversation) => b.last_activity_at.localeCompare(a.last_activity_at);

/** One conversation in the list: a card that opens it. */
function ConversationCard({
  conversation: c,
  current,
  assignee,
}: {
  conversation: Row;
  current: boolean;
  assignee: string;
}) {
  const waiting = isWaiting(c);
  const preview = c.last_message
    ? `${c.last_message.direction === 'outbound' ? 'You: ' : ''}${c.last_message.text}`
    : 'No messages yet';
  return (
    <li className={`conversation-card${current ? ' current' : ''}${c.unanswered_count > 0 ? ' unread' : ''}`}>
      <a
        href={`/inbox/${c.id}`}
        aria-current={current ? 'page' : undefined}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          navigate(`/inbox/${c.id}`);
        }}
      >
        <span className="card-top">
          <span className="card-customer">{customerLabel(c.customer)}</span>
          <span className="card-when">{formatWhen(c.last_activity_at)}</span>
        </span>
        <span className="card-preview">{preview}</span>
        <span className="card-signals">
          {c.unanswered_count > 0 && (
            <span className="unread-count" aria-label={`${c.unanswered_count} unanswered`}>
              {c.unanswered_count}
            </span>
          )}
          {c.handoff && c.status !== 'resolved' && (
            <Badge color="red">{`Handoff: ${HANDOFF_REASONS[c.handoff.reason] ?? c.handoff.reason}`}</Badge>
          )}
          {waiting && (
            <Badge color="blue">{`Waiting ${formatWait((Date.now() - Date.parse(c.last_inbound_at ?? '')) / 1000)}`}</Badge>
          )}
          <SentimentBadge sentiment={c.sentiment} />
          {c.status !== 'open' && <StatusBadge status={c.status} />}
          {c.priority !== 'normal' && (
            <Badge color={c.priority === 'low' ? 'grey' : 'severity-high'}>{c.priority}</Badge>
          )}
        </span>
        <span className="card-meta">
          {c.channel === 'whatsapp' ? 'WhatsApp' : 'Sandbox'}
          {' \u00b7 '}
          {assignee || 'Unassigned'}
          {c.tags.length > 0 && ` \u00b7 ${c.tags.join(', ')}`}
        </span>
      </a>
    </li>
  );
}

/** The tab's title counts my conversations with customer messages waiting: "(3) Inbox". */
function useUnreadTitle(mine: Conversation[] | undefined) {
  const unread = mine?.filter((c) => c.unanswered_count > 0 && c.status !== 'resolved').length ?? 0;
  useEffect(() => {
    const base = 'Inbox \u00b7 Messaging Platform';
    document.title = unread > 0 ? `(${unread}) ${base}` : base;
    return () => {
      document.title = 'Messaging Platform';
    };
  }, [unread]);
}

const canNotify = () => typeof Notification !== 'undefined';

/** Offers browser notifications while the user has not decided; says so once they are on. */
function NotificationsButton() {
  const [permission, setPermission] = useState(canNotify() ? Notification.permission : 'denied');
  if (permission !== 'default') return null;
  return (
    <Button
      iconName="notification"
      onClick={() => void Notification.requestPermission().then(setPermission)}
      ariaLabel="Notify me of new messages"
    >
      Notify me
    </Button>
  );
}

/**
 * A browser notification for each new customer message found by a refresh (not on the first load, and not
 * for the conversation already open in a visible tab), when the user allowed them.
 */
function useNewMessageNotifications(rows: Conversation[] | undefined, open: string | undefined) {
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!rows) return;
    const before = seen.current;
    seen.current = new Map(rows.map((c) => [c.id, c.last_message?.at ?? '']));
    if (!before || !canNotify() || Notification.permission !== 'granted') return;
    for (const c of rows) {
      const last = c.last_message;
      if (!last || last.direction !== 'inbound' || (before.get(c.id) ?? '') >= last.at) continue;
      if (c.id === open && document.visibilityState === 'visible') continue;
      const note = new Notification(customerLabel(c.customer), { body: last.text, tag: c.id });
      note.onclick = () => {
        window.focus();
        navigate(`/inbox/${c.id}`);
      };
    }
  }, [rows, open]);
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
