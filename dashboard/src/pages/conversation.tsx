import { Fragment, useEffect, useRef, useState } from 'react';
import Badge from '@cloudscape-design/components/badge';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button, { type ButtonProps } from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Textarea, { type TextareaProps } from '@cloudscape-design/components/textarea';
import TokenGroup from '@cloudscape-design/components/token-group';
import {
  PreconditionFailedError,
  type Analysis,
  type Conversation,
  type ConversationWithMessages,
  type Message,
  type Note,
  type Page,
  type RenderedSavedReply,
  type SavedReply,
  type Suggestions,
} from '@messaging-platform/sdk';
import { useAction, useApp, useOlderPages, useResource, useSettled, useTeam, type Resource } from '../context';
import { SendPaymentLink } from '../components/send-payment-link';
import { CustomerPayments } from '../components/customer-payments';
import { ScheduledMessages, ServiceWindow, useScheduleSend } from '../components/whatsapp-composer';
import { MessageFile, showsFile, useAttachFile } from '../components/message-media';
import { Freshness, LoadOlder } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { customerContact, customerLabel, formatDateTime, formatTime, formatWhen } from '../format';
import { changesConversation, changesNotes } from '../realtime';
import { intentLabel } from '../words';
import { HANDOFF_REASONS, SentimentBadge, StatusBadge } from './inbox';
import { customerHref, follow } from '../router';

/** The open conversation's refresh while no realtime connection pushes its events. */
const POLL_MS = 5000;
/** Who analysed a message, in words. */
const PROVIDER_NAMES: Record<string, string> = { local: 'the built-in model', bedrock: 'Amazon Bedrock' };
const TAG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
/** Snooze choices: the moment each one wakes the conversation, from now (local time). */
const SNOOZES: { value: string; label: string; until: (now: Date) => Date }[] = [
  { value: 'snooze:1h', label: 'Snooze for an hour', until: (now) => new Date(now.getTime() + 3_600_000) },
  {
    value: 'snooze:tomorrow',
    label: 'Snooze until tomorrow, 9:00',
    until: (now) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9),
  },
  {
    value: 'snooze:week',
    label: 'Snooze until Monday, 9:00',
    // The coming Monday (a week ahead on a Monday).
    until: (now) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + ((8 - now.getDay()) % 7 || 7), 9),
  },
];
const STATUS_OPTIONS: SelectProps.Option[] = [
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  ...SNOOZES.map(({ value, label }) => ({ value, label })),
  { value: 'resolved', label: 'Resolved' },
];

/** A resolved conversation can only be reopened (the API's transitions): the other choices say so. */
const blockedStatus = (from: Conversation['status'], choice: string | undefined) =>
  from === 'resolved' && choice !== 'open' && choice !== 'resolved'
    ? { disabled: true, disabledReason: 'Reopen the conversation first.' }
    : {};

/** How the thread says what happened to an outbound message: ticks, as in WhatsApp, with the words for screen readers. */
const TICKS: Record<string, { ticks: string; words: string; className: string }> = {
  queued: { ticks: '\u25f7', words: 'Queued', className: 'ticks pending' },
  scheduled: { ticks: '\u25f7', words: 'Scheduled', className: 'ticks pending' },
  canceled: { ticks: '\u2715', words: 'Canceled', className: 'ticks' },
  sent: { ticks: '\u2713', words: 'Sent', className: 'ticks' },
  delivered: { ticks: '\u2713\u2713', words: 'Delivered', className: 'ticks' },
  read: { ticks: '\u2713\u2713', words: 'Read', className: 'ticks read' },
  failed: { ticks: '!', words: 'Failed', className: 'ticks failed' },
};

/** The open conversation's loading, refreshed by pushed events (or a slow poll without them). */
function useConversation(id: string) {
  return useResource((c) => c.conversations.get(id), [id], { pollMs: POLL_MS, refreshOn: changesConversation(id) });
}

/**
 * One conversation as the inbox shows it beside the list: the thread (messages by day, the composer
 * always under it) and a side panel (the customer, their bookings, status, assignee, tags, the AI's
 * reading, the team's notes). `onChanged` tells the list that something it shows changed.
 */
export function ConversationPanes({
  id,
  onBack,
  onChanged,
}: {
  id: string;
  onBack: () => void;
  onChanged: () => void;
}) {
  const { client, flash } = useApp();
  const conversation = useConversation(id);
  const update = useAction();
  const c = conversation.data;
  if (conversation.error && !c)
    return (
      <section className="inbox-thread" aria-label="Conversation">
        <BackButton onBack={onBack} />
        <ErrorAlert
          error={conversation.error}
          action={<Button onClick={() => void conversation.reload()}>Retry</Button>}
        />
      </section>
    );
  if (!c)
    return (
      <section className="inbox-thread" aria-label="Conversation">
        <BackButton onBack={onBack} />
        <Box textAlign="center" padding="xl">
          <Spinner /> Loading the conversation…
        </Box>
      </section>
    );
  const change = async (changes: Parameters<typeof client.conversations.update>[1], done: string) => {
    const updated = await update.run(() => client.conversations.update(id, changes, { ifMatch: c.version }));
    if (updated) flash({ type: 'success', content: done });
    void conversation.reload();
    onChanged();
  };
  return (
    <>
      <Thread
        conversation={c}
        resource={conversation}
        onBack={onBack}
        onSent={() => {
          void conversation.reload();
          onChanged();
        }}
      />
      <aside className="inbox-side" aria-label="Conversation details">
        <SpaceBetween size="m">
          {update.error instanceof PreconditionFailedError ? (
            <Alert type="warning" dismissible onDismiss={update.clearError}>
              Someone else changed this conversation meanwhile, so your change was not made. It has been reloaded: check
              it and make your change again.
            </Alert>
          ) : (
            <ErrorAlert error={update.error} onDismiss={update.clearError} />
          )}
          <CustomerPanel conversation={c} />
          <CustomerPayments customerId={c.customer.id} />
          <ConversationSettings
            conversation={c}
            busy={update.busy}
            onChange={(changes, done) => void change(changes, done)}
          />
          <AiPanel conversation={c} />
          <TeamNotes conversationId={id} />
        </SpaceBetween>
      </aside>
    </>
  );
}

function BackButton({ onBack }: { onBack: () => void }) {
  return (
    <div className="thread-back">
      <Button variant="inline-link" iconName="angle-left" onClick={onBack}>
        Back to conversations
      </Button>
    </div>
  );
}

/** The day a message was written, as a separator says it: "Today", "Yesterday", else the date. */
function dayLabel(iso: string, now = new Date()): string {
  const day = new Date(iso);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (day.toDateString() === now.toDateString()) return 'Today';
  if (day.toDateString() === yesterday.toDateString()) return 'Yesterday';
  return DAY_FORMAT.format(day);
}
const DAY_FORMAT = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** The messages by day, the composer under them (always in view: the messages scroll, not the page). */
function Thread({
  conversation: c,
  resource,
  onBack,
  onSent,
}: {
  conversation: ConversationWithMessages;
  resource: Resource<ConversationWithMessages>;
  onBack: () => void;
  onSent: () => void;
}) {
  const { client } = useApp();
  const id = c.id;
  const log = useRef<HTMLDivElement>(null);
  // Whether the message list shows its newest message: only then does a new one scroll it (never the page).
  const pinned = useRef(true);
  // Messages older than the conversation's newest 20, read from the start of the list on request.
  const loadOlder = useOlderPages<Message>(
    (cursor) => client.conversations.messages.list(id, { limit: 100, ...(cursor ? { cursor } : {}) }).page(),
    c.messages_has_more ? null : undefined,
    [id],
  );
  const messages = loadOlder.merged(c.messages).sort((a, b) => a.created_at.localeCompare(b.created_at));
  const newest = messages[messages.length - 1]?.id;
  useEffect(() => {
    const el = log.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [newest]);
  let lastDay = '';
  return (
    <section className="inbox-thread" aria-labelledby="thread-heading">
      <div className="thread-header">
        <BackButton onBack={onBack} />
        <Header
          variant="h2"
          description={
            <>
              <Link href={customerHref(c.customer.id)} onFollow={follow}>
                {customerContact(c.customer)}
              </Link>
              {` \u00b7 ${c.channel === 'whatsapp' ? 'WhatsApp' : 'Sandbox'}${c.category ? ` \u00b7 ${c.category}` : ''}`}
            </>
          }
          info={<StatusBadge status={c.status} />}
          actions={<SendPaymentLink conversationId={c.id} />}
        >
          <span id="thread-heading">{customerLabel(c.customer)}</span>
        </Header>
        {c.handoff && c.status !== 'resolved' && (
          <Box variant="small">
            <Badge color="red">{`Handoff: ${HANDOFF_REASONS[c.handoff.reason] ?? c.handoff.reason}`}</Badge> The
            assistant handed this conversation to a person {formatWhen(c.handoff.at)}.
          </Box>
        )}
      </div>
      <div
        className="messages"
        role="log"
        aria-label="Messages"
        aria-live="polite"
        tabIndex={0}
        ref={log}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {loadOlder.hasMore && (
          <Box textAlign="center">
            <Button onClick={() => void loadOlder.load()} loading={loadOlder.busy}>
              Show older messages
            </Button>
          </Box>
        )}
        <ErrorAlert error={loadOlder.error} onDismiss={loadOlder.clearError} />
        {messages.length === 0 && <Box color="text-status-inactive">No messages yet.</Box>}
        {messages.map((m) => {
          const day = dayLabel(m.created_at);
          const separator = day !== lastDay;
          lastDay = day;
          return (
            <Fragment key={m.id}>
              {separator && (
                <div className="day-separator" role="separator" aria-label={day}>
                  <span>{day}</span>
                </div>
              )}
              <MessageItem message={m} />
            </Fragment>
          );
        })}
      </div>
      <Freshness resource={resource} />
      <Composer conversation={c} onSent={onSent} />
    </section>
  );
}

/** The reply box under the thread: Enter sends, Shift+Enter breaks the line, `/` finds saved replies. */
function Composer({ conversation: c, onSent }: { conversation: Conversation; onSent: () => void }) {
  const { client } = useApp();
  const id = c.id;
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  const reply = useComposer(
    (text) => client.conversations.messages.send(id, { text }),
    () => {
      setSuggestions(null);
      onSent();
    },
  );
  const savedReplies = useSavedReplyPicker(id, reply);
  // Send (the button, or Enter) on a bare `/shortcut` inserts the highlighted saved reply rather than sending it.
  const replyBox = { ...reply, submit: () => (savedReplies.takeSubmit() ? Promise.resolve() : reply.submit()) };
  const suggest = useAction();
  const schedule = useScheduleSend(id, reply, onSent);
  const attach = useAttachFile(id, onSent);
  return (
    <div className="composer">
      <SpaceBetween size="xs">
        <ErrorAlert error={reply.error} onDismiss={reply.clearError} />
        <ErrorAlert error={suggest.error} onDismiss={suggest.clearError} />
        <ServiceWindow conversation={c} onSent={onSent} />
        <ScheduledMessages conversation={c} />
        {suggestions && (
          <div role="group" aria-label="Suggested replies">
            <SpaceBetween size="xxs">
              <Box variant="awsui-key-label">Suggested replies (choose one to use it)</Box>
              {suggestions.suggestions.length === 0 && <Box>No suggestion for this conversation.</Box>}
              <div className="suggestions">
                {suggestions.suggestions.map((s) => (
                  <Button
                    key={s.text}
                    onClick={() => {
                      reply.setText(s.text);
                      reply.field.current?.focus();
                    }}
                    ariaLabel={`Use suggestion: ${s.text}`}
                  >
                    {s.text}
                  </Button>
                ))}
              </div>
            </SpaceBetween>
          </div>
        )}
        {savedReplies.below}
        {schedule.panel}
        {attach.panel}
        <ComposeField
          label="Message"
          placeholder="Write a reply (Enter sends, Shift+Enter for a new line, / for saved replies)"
          rows={2}
          composer={replyBox}
          enterSends
          onKeyDown={savedReplies.onKeyDown}
          listbox={savedReplies.listboxId}
        />
        <div className="composer-actions">
          <Button
            variant="primary"
            loading={reply.busy}
            disabled={!reply.text.trim()}
            onClick={() => void replyBox.submit()}
          >
            Send
          </Button>
          {schedule.button}
          {attach.button}
          <Button
            iconName="gen-ai"
            loading={suggest.busy}
            onClick={() =>
              void suggest
                .run(() => client.ai.suggest({ conversation_id: id, count: 3 }))
                .then((s) => s && setSuggestions(s))
            }
          >
            Suggest replies
          </Button>
          {savedReplies.select}
        </div>
      </SpaceBetween>
    </div>
  );
}

/** The customer, with their upcoming bookings. */
function CustomerPanel({ conversation: c }: { conversation: Conversation }) {
  const bookings = useResource(
    (client) => client.bookings.list({ customer_id: c.customer.id, from: new Date().toISOString(), limit: 5 }).page(),
    [c.customer.id],
  );
  const upcoming = (bookings.data?.data ?? [])
    .filter((b) => b.status === 'confirmed' || b.status === 'pending')
    .sort((a, b) => a.start_at.localeCompare(b.start_at));
  return (
    <Container header={<Header variant="h3">Customer</Header>}>
      <SpaceBetween size="s">
        <KeyValuePairs
          columns={1}
          items={[
            {
              label: 'Name',
              value: (
                <Link href={customerHref(c.customer.id)} onFollow={follow}>
                  {customerLabel(c.customer)}
                </Link>
              ),
            },
            { label: 'Contact', value: customerContact(c.customer) },
          ]}
        />
        <Box variant="awsui-key-label">Upcoming bookings</Box>
        {bookings.error !== undefined && <ErrorAlert error={bookings.error} />}
        {bookings.loading && !bookings.data ? (
          <Spinner />
        ) : upcoming.length ? (
          <ul className="plain-list">
            {upcoming.map((b) => (
              <li key={b.id}>
                {`${b.service} \u00b7 ${formatDateTime(b.start_at)}`}
                {b.status === 'pending' && ' (pending)'}
              </li>
            ))}
          </ul>
        ) : (
          <Box color="text-status-inactive">None</Box>
        )}
      </SpaceBetween>
    </Container>
  );
}

/** The AI's reading of the customer's newest message: mood, intent, language, and entities on request. */
function AiPanel({ conversation: c }: { conversation: ConversationWithMessages }) {
  const { client } = useApp();
  const latest = [...c.messages]
    .filter((m) => m.direction === 'inbound')
    .sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  const [details, setDetails] = useState<Analysis | null>(null);
  const analyze = useAction();
  const a = latest?.analysis;
  return (
    <Container header={<Header variant="h3">AI analysis</Header>}>
      <SpaceBetween size="s">
        {!latest ? (
          <Box color="text-status-inactive">No customer message yet.</Box>
        ) : !a ? (
          <Box color="text-status-inactive">
            Not analysed yet; the background analysis runs shortly after a message arrives.
          </Box>
        ) : (
          <KeyValuePairs
            columns={1}
            items={[
              { label: 'Mood', value: <SentimentBadge sentiment={a.sentiment} /> },
              {
                label: 'Wants',
                value: `${intentLabel(a.intent.name)} (${Math.round(a.intent.confidence * 100)}% sure)`,
              },
              { label: 'Language', value: a.language },
              {
                label: 'Analysed',
                value: `${formatWhen(a.analyzed_at)} by ${PROVIDER_NAMES[a.provider] ?? a.provider}`,
              },
            ]}
          />
        )}
        {latest &&
          (details ? (
            <KeyValuePairs
              columns={1}
              items={[
                {
                  label: 'Entities',
                  value: details.entities.length
                    ? details.entities.map((e) => `${e.type}: ${e.text}`).join(', ')
                    : 'none',
                },
                {
                  label: 'Needs a person',
                  value: details.handoff.recommended ? `yes (${details.handoff.reason ?? ''})` : 'no',
                },
              ]}
            />
          ) : (
            <Button
              loading={analyze.busy}
              onClick={() =>
                void analyze.run(() => client.ai.analyze({ text: latest.text })).then((r) => r && setDetails(r))
              }
            >
              Analyse entities
            </Button>
          ))}
        <ErrorAlert error={analyze.error} />
      </SpaceBetween>
    </Container>
  );
}

/** A reply that is only `/` and the start of a shortcut ("/ho"): the composer offers the matching saved replies. */
const SLASH_COMMAND = /^\/([a-z0-9_-]{0,32})$/i;
const SLASH_MATCHES_SHOWN = 6;
/** The saved replies the list beside the reply buttons offers (A to Z); the others are found by `/shortcut`. */
const SAVED_REPLIES_SHOWN = 100;
const PLACEHOLDER_WORDS: Record<RenderedSavedReply['missing'][number], string> = {
  'customer.name': 'the customer\u2019s name',
  'customer.first_name': 'the customer\u2019s first name',
  'customer.phone': 'the customer\u2019s phone number',
  'agent.name': 'your name',
  'agent.first_name': 'your first name',
};

const emptied = (missing: RenderedSavedReply['missing']) => missing.map((m) => PLACEHOLDER_WORDS[m]).join(', ');

/**
 * Saved replies for the reply box: a list to pick from (`select`, beside the buttons, read afresh each
 * time it takes focus), and the replies whose shortcut starts with a `/shortcut` typed into the box
 * (`below` it, asked of the API once typing pauses). The chosen reply is filled in for this conversation
 * by the API and replaces the text, focus goes back to the box, and what could not be filled in is named.
 * `takeSubmit` keeps Send and Ctrl+Enter from sending a bare `/shortcut`: it inserts the first match.
 */
function useSavedReplyPicker(
  conversationId: string,
  composer: Pick<ReturnType<typeof useComposer>, 'text' | 'setText' | 'field'>,
) {
  const { client } = useApp();
  const typed = SLASH_COMMAND.exec(composer.text)?.[1]?.toLowerCase();
  const prefix = useSettled(typed, 150);
  const matches = useResource(
    (c) =>
      prefix === undefined
        ? Promise.resolve(undefined)
        : // A bare `/` offers the first ones, A to Z.
          c.savedReplies.list({ ...(prefix ? { shortcut: prefix } : {}), limit: SLASH_MATCHES_SHOWN }).page(),
    [prefix],
  );
  const shown = typed !== undefined && prefix === typed && !matches.loading ? matches.data?.data : undefined;
  const [list, setList] = useState<Page<SavedReply> | null>(null);
  const [missing, setMissing] = useState<RenderedSavedReply['missing']>([]);
  const load = useAction();
  const insert = useAction();
  const loadList = () => {
    if (!load.busy)
      void load
        .run(() => client.savedReplies.list({ limit: SAVED_REPLIES_SHOWN }).page())
        .then((page) => page && setList(page));
  };
  // What the last insertion did, for screen readers (the info alert about empty values is not announced).
  const [inserted, setInserted] = useState('');
  const use = async (reply: SavedReply) => {
    setMissing([]);
    const rendered = await insert.run(() => client.savedReplies.render(reply.id, { conversation_id: conversationId }));
    if (!rendered) return;
    composer.setText(rendered.text);
    setMissing(rendered.missing);
    setInserted(
      `/${reply.shortcut} inserted${rendered.missing.length ? `; left empty, as it is not known: ${emptied(rendered.missing)}` : ''}.`,
    );
    composer.field.current?.focus();
  };
  // The highlighted match of a typed `/shortcut`: arrows move it, Enter inserts it, Escape closes the list.
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  useEffect(() => setHighlight(0), [typed, shown?.length]);
  const open = typed !== undefined && dismissed !== composer.text && !!shown?.length;
  const takeSubmit = (): boolean => {
    if (typed === undefined) return false;
    const chosen = shown?.[Math.min(highlight, (shown?.length ?? 1) - 1)];
    if (chosen && !insert.busy) void use(chosen);
    return true;
  };
  /** Arrow keys and Escape while the list of matches is open; true when the key was taken. */
  const onKeyDown = (key: string): boolean => {
    if (!open || !shown) return false;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      const step = key === 'ArrowDown' ? 1 : -1;
      setHighlight((h) => (h + step + shown.length) % shown.length);
      return true;
    }
    if (key === 'Escape') {
      setDismissed(composer.text);
      return true;
    }
    return false;
  };
  const listboxId = `saved-replies-${conversationId}`;
  const status =
    typed === undefined
      ? ''
      : matches.error && !matches.loading
        ? ''
        : !shown
          ? 'Looking up saved replies\u2026'
          : shown.length === 0
            ? `No saved reply starts with /${typed}.`
            : `${shown.length === 1 ? 'One saved reply starts' : `${shown.length} saved replies start`} with /${typed}: Enter inserts the highlighted one, the arrow keys move.`;
  const below = (
    <>
      {status && !shown?.length && <Box color="text-status-inactive">{status}</Box>}
      {typed !== undefined && matches.error !== undefined && !matches.loading && (
        <ErrorAlert error={matches.error} action={<Button onClick={() => void matches.reload()}>Retry</Button>} />
      )}
      {open && shown && (
        <ul
          className="slash-list"
          role="listbox"
          id={listboxId}
          aria-label={`Saved replies starting with /${typed ?? ''}`}
        >
          {shown.map((r, i) => (
            <li
              key={r.id}
              id={`${listboxId}-${r.id}`}
              role="option"
              aria-selected={i === highlight}
              className={i === highlight ? 'highlighted' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => void use(r)}
            >
              <span className="slash-shortcut">{`/${r.shortcut}`}</span> {r.title}
            </li>
          ))}
        </ul>
      )}
      {missing.length > 0 && composer.text !== '' && (
        <Alert type="info" dismissible onDismiss={() => setMissing([])}>
          {`Left empty, as it is not known: ${emptied(missing)}. Check the text before you send it.`}
        </Alert>
      )}
      <ErrorAlert error={insert.error} onDismiss={insert.clearError} />
    </>
  );
  const select = (
    <div className="saved-reply-select">
      {/* What the typed /shortcut found, for screen readers: here, as this part is always on the page. */}
      <div role="status" className="visually-hidden">
        {typed === undefined ? inserted : status}
      </div>
      <Select
        selectedOption={null}
        placeholder="Insert a saved reply"
        filteringType="auto"
        filteringPlaceholder="Find by shortcut, title or text"
        ariaLabel="Insert a saved reply"
        onFocus={loadList}
        onLoadItems={(e) => {
          if (e.detail.samePage) loadList();
        }}
        recoveryText="Try again"
        statusType={load.busy ? 'loading' : load.error ? 'error' : 'finished'}
        loadingText="Loading saved replies"
        errorText="The saved replies could not be loaded."
        finishedText={
          list?.hasMore
            ? `The first ${SAVED_REPLIES_SHOWN} by shortcut: type / and a shortcut in the message for the others.`
            : undefined
        }
        empty="No saved replies yet: add them in Settings \u203a Saved replies."
        options={(list?.data ?? []).map((r) => ({
          value: r.id,
          label: `/${r.shortcut}`,
          description: r.title,
          tags: [r.text.length > 80 ? `${r.text.slice(0, 80)}\u2026` : r.text],
        }))}
        onChange={(e) => {
          const reply = list?.data.find((r) => r.id === e.detail.selectedOption.value);
          if (reply) void use(reply);
        }}
      />
    </div>
  );
  return { below, select, takeSubmit, onKeyDown, listboxId: open ? listboxId : undefined };
}

/** Text to send (a reply, a note): trimmed, one send at a time, cleared once sent. */
function useComposer(send: (text: string) => Promise<unknown>, onSent: () => void) {
  const [text, setText] = useState('');
  const field = useRef<TextareaProps.Ref>(null);
  const action = useAction();
  const submit = async () => {
    const body = text.trim();
    // Ctrl+Enter does not wait for the button.
    if (!body || action.busy) return;
    if (await action.run(() => send(body).then(() => true))) {
      setText('');
      onSent();
    }
  };
  return { text, setText, submit, field, busy: action.busy, error: action.error, clearError: action.clearError };
}

/**
 * A text box for a reply or a note, bound to its composer (useComposer). `enterSends`: Enter sends and
 * Shift+Enter breaks the line (the reply box); otherwise Ctrl+Enter (⌘+Enter) submits (notes, which run
 * longer). `onKeyDown` may take a key first (the saved-reply list's arrows). Escape cancels where there is a Cancel.
 */
function ComposeField(props: {
  label: string;
  placeholder: string;
  rows: number;
  composer: Pick<ReturnType<typeof useComposer>, 'text' | 'setText' | 'submit' | 'field'>;
  onCancel?: () => void;
  autoFocus?: boolean;
  enterSends?: boolean;
  onKeyDown?: (key: string) => boolean;
  /** The id of the list of choices the box controls while it is open. */
  listbox?: string;
}) {
  const { composer } = props;
  return (
    <FormField label={props.label} stretch>
      <Textarea
        ref={composer.field}
        value={composer.text}
        onChange={(e) => composer.setText(e.detail.value)}
        placeholder={props.placeholder}
        rows={props.rows}
        autoFocus={props.autoFocus}
        ariaLabel={props.label}
        {...(props.listbox ? { ariaDescribedby: props.listbox } : {})}
        onKeyDown={(e) => {
          const { key, shiftKey, ctrlKey, metaKey } = e.detail;
          if (props.onKeyDown?.(key)) {
            e.preventDefault();
            return;
          }
          if (key === 'Enter' && !e.detail.isComposing) {
            const submits = props.enterSends ? !shiftKey : ctrlKey || metaKey;
            if (submits) {
              e.preventDefault();
              void composer.submit();
            }
          }
          if (key === 'Escape' && props.onCancel) props.onCancel();
        }}
      />
    </FormField>
  );
}

/** How often the notes are read again only while the realtime socket is down (it signals note changes). */
const NOTES_POLL_MS = 60_000;
const NOTES_SHOWN = 50;

/** The team's notes on the conversation, newest first, and a box to add one. The customer never sees them. */
function TeamNotes({ conversationId }: { conversationId: string }) {
  const { client, me, isAdmin } = useApp();
  const { nameOf } = useTeam();
  const notes = useResource(
    (c) => c.conversations.notes.list(conversationId, { limit: NOTES_SHOWN }).page(),
    [conversationId],
    { pollMs: NOTES_POLL_MS, refreshOn: changesNotes(conversationId) },
  );
  const add = useComposer(
    (text) => client.conversations.notes.create(conversationId, { text }),
    () => void notes.reload(),
  );
  // Older notes, read on request past the newest NOTES_SHOWN.
  const older = useOlderPages<Note>(
    (cursor) =>
      client.conversations.notes.list(conversationId, { limit: NOTES_SHOWN, ...(cursor ? { cursor } : {}) }).page(),
    notes.data?.hasMore ? notes.data.nextCursor : undefined,
    [conversationId],
  );
  // A note's author deletes it (an admin anyone's); a deleted note leaves the list at once.
  const remove = useAction();
  const [removed, setRemoved] = useState<string[]>([]);
  const removeNote = async (note: Note) => {
    const deleted = () => client.conversations.notes.delete(conversationId, note.id, { ifMatch: note.version });
    if (await remove.run(() => deleted().then(() => true))) {
      if (editing === note.id) setEditing(null);
      setRemoved((ids) => [...ids, note.id]);
      void notes.reload();
    }
  };
  // Its author rewords a note in place; the edited note shows at once, wherever it was listed from. One
  // note is edited at a time (Edit waits while a save runs); closing the editor puts focus back on its Edit.
  const [editing, setEditing] = useState<string | null>(null);
  // The version the edit started from: a save over a change made meanwhile (another tab) is refused.
  const [editingVersion, setEditingVersion] = useState<number | undefined>(undefined);
  const [edits, setEdits] = useState<Record<string, Note>>({});
  const [editGone, setEditGone] = useState(false);
  const editButtons = useRef<Record<string, ButtonProps.Ref | null>>({});
  const stopEditing = (id: string) => {
    setEditing(null);
    requestAnimationFrame(() => editButtons.current[id]?.focus());
  };
  const edit = useComposer(
    async (text) => {
      if (!editing) return;
      const saved = await client.conversations.notes.update(
        conversationId,
        editing,
        { text },
        { ifMatch: editingVersion },
      );
      setEdits((all) => ({ ...all, [saved.id]: saved }));
      stopEditing(saved.id);
    },
    () => void notes.reload(),
  );
  const startEditing = (note: Note) => {
    edit.clearError();
    setEditGone(false);
    edit.setText(note.text);
    setEditing(note.id);
    setEditingVersion(note.version);
  };
  const mine = (note: Note) => note.author.type === 'user' && note.author.id === me.user_id;
  const authorOf = (note: Note) =>
    note.author.type === 'user' ? nameOf(note.author.id) || 'a teammate' : 'an API integration';
  const shown = notes.data
    ? older
        .merged(notes.data.data)
        .filter((n) => !removed.includes(n.id))
        .map((n) => {
          const local = edits[n.id];
          return local && local.version > n.version ? local : n;
        })
    : [];
  // The note being edited was deleted meanwhile (by an admin, or elsewhere): the editor closes, saying so.
  const editedNoteGone = editing !== null && notes.data !== undefined && !shown.some((n) => n.id === editing);
  useEffect(() => {
    if (!editedNoteGone) return;
    setEditing(null);
    setEditGone(true);
  }, [editedNoteGone]);
  return (
    <Container
      header={
        <Header
          variant="h2"
          counter={notes.data ? `(${shown.length}${older.hasMore ? '+' : ''})` : undefined}
          description="Only your team sees these; the customer never does."
        >
          Team notes
        </Header>
      }
    >
      <SpaceBetween size="s">
        <ErrorAlert error={notes.error} action={<Button onClick={() => void notes.reload()}>Retry</Button>} />
        <ErrorAlert error={add.error} onDismiss={add.clearError} />
        <ErrorAlert error={remove.error} onDismiss={remove.clearError} />
        {editGone && (
          <Alert type="info" dismissible onDismiss={() => setEditGone(false)}>
            The note you were editing has been deleted.
          </Alert>
        )}
        {notes.data && shown.length === 0 && <Box color="text-status-inactive">No notes yet.</Box>}
        {shown.length > 0 && (
          <ul className="notes" aria-label="Team notes">
            {shown.map((n) => (
              <li key={n.id}>
                <Box variant="small" color="text-body-secondary">
                  {`${mine(n) ? 'You' : authorOf(n)}, ${formatDateTime(n.created_at)}`}
                  {n.edited_at && ` (edited ${formatWhen(n.edited_at)})`}
                  {mine(n) && editing !== n.id && (
                    <>
                      {' · '}
                      <Button
                        variant="inline-link"
                        ref={(button) => {
                          editButtons.current[n.id] = button;
                        }}
                        ariaLabel={`Edit the note: ${n.text.slice(0, 40)}`}
                        disabled={edit.busy}
                        onClick={() => startEditing(n)}
                      >
                        Edit
                      </Button>
                    </>
                  )}
                  {(mine(n) || isAdmin) && editing !== n.id && (
                    <>
                      {' · '}
                      <Button
                        variant="inline-link"
                        ariaLabel={`Delete the note: ${n.text.slice(0, 40)}`}
                        disabled={remove.busy}
                        onClick={() => void removeNote(n)}
                      >
                        Delete
                      </Button>
                    </>
                  )}
                </Box>
                {editing === n.id ? (
                  <SpaceBetween size="xs">
                    <ErrorAlert error={edit.error} onDismiss={edit.clearError} />
                    <ComposeField
                      label="Edit note"
                      placeholder="The note's new text"
                      rows={2}
                      composer={edit}
                      onCancel={edit.busy ? undefined : () => stopEditing(n.id)}
                      autoFocus
                    />
                    <SpaceBetween direction="horizontal" size="xs">
                      <Button
                        variant="primary"
                        loading={edit.busy}
                        disabled={!edit.text.trim() || edit.text.trim() === n.text}
                        onClick={() => void edit.submit()}
                      >
                        Save note
                      </Button>
                      <Button variant="link" disabled={edit.busy} onClick={() => stopEditing(n.id)}>
                        Cancel
                      </Button>
                    </SpaceBetween>
                  </SpaceBetween>
                ) : (
                  <div className="note-text">{n.text}</div>
                )}
              </li>
            ))}
          </ul>
        )}
        <LoadOlder more={older}>Show older notes</LoadOlder>
        <ComposeField label="Note" placeholder="For your team only…" rows={2} composer={add} />
        <Button loading={add.busy} disabled={!add.text.trim()} onClick={() => void add.submit()}>
          Add note
        </Button>
      </SpaceBetween>
    </Container>
  );
}

function ConversationSettings({
  conversation: c,
  busy,
  onChange,
}: {
  conversation: Conversation;
  busy: boolean;
  onChange: (
    changes: {
      status?: Conversation['status'];
      snoozed_until?: string | null;
      tags?: string[];
      assignee_id?: string | null;
    },
    done: string,
  ) => void;
}) {
  const { me } = useApp();
  const { users, nameOf } = useTeam();
  const [tag, setTag] = useState('');
  // Active users can be assigned; a disabled assignee stays shown until someone changes it.
  const assignees: SelectProps.Option[] = [
    { value: '', label: 'Unassigned' },
    ...(users.data ?? [])
      .filter((u) => u.status === 'active' || u.id === c.assignee_id)
      .map((u) => ({
        value: u.id,
        label: nameOf(u.id),
        description: u.name ? u.email : undefined,
        disabled: u.status !== 'active',
        disabledReason: 'A disabled user cannot be assigned.',
      })),
  ];
  const assign = (id: string | null) =>
    onChange({ assignee_id: id }, id ? `Assigned to ${nameOf(id)}.` : 'The conversation is unassigned.');
  const tagError = tag && !TAG.test(tag) ? 'Lowercase letters and digits, joined by - or _.' : '';
  const addTag = () => {
    const t = tag.trim();
    if (!t || tagError || c.tags.includes(t)) return;
    setTag('');
    onChange({ tags: [...c.tags, t] }, `Tagged ${t}.`);
  };
  return (
    <Container header={<Header variant="h3">Status, assignee and tags</Header>}>
      <SpaceBetween size="m">
        <FormField label="Status">
          <Select
            readOnly={busy}
            selectedOption={
              c.status === 'snoozed'
                ? { value: 'snoozed', label: `Snoozed until ${formatWhen(c.snoozed_until)}` }
                : (STATUS_OPTIONS.find((o) => o.value === c.status) ?? null)
            }
            options={STATUS_OPTIONS.map((o) => ({ ...o, ...blockedStatus(c.status, o.value) }))}
            onChange={(e) => {
              const choice = e.detail.selectedOption.value ?? '';
              const snooze = SNOOZES.find((o) => o.value === choice);
              if (snooze) {
                const until = snooze.until(new Date());
                onChange(
                  { status: 'snoozed', snoozed_until: until.toISOString() },
                  `Snoozed until ${formatWhen(until.toISOString())}.`,
                );
              } else {
                const status = choice as Conversation['status'];
                onChange({ status }, `The conversation is ${status}.`);
              }
            }}
          />
        </FormField>
        <FormField label="Assignee">
          <SpaceBetween direction="horizontal" size="xs">
            <Select
              readOnly={busy}
              selectedOption={
                assignees.find((o) => o.value === (c.assignee_id ?? '')) ?? {
                  value: c.assignee_id ?? '',
                  label: nameOf(c.assignee_id),
                }
              }
              options={assignees}
              statusType={users.error !== undefined ? 'error' : users.loading ? 'loading' : 'finished'}
              loadingText="Loading the team"
              errorText="The team could not be loaded."
              recoveryText="Retry"
              onLoadItems={() => void users.reload()}
              onChange={(e) => assign(e.detail.selectedOption.value || null)}
              ariaLabel="Assignee"
            />
            {c.assignee_id !== me.user_id && (
              <Button disabled={busy} onClick={() => assign(me.user_id)}>
                Assign to me
              </Button>
            )}
          </SpaceBetween>
        </FormField>
        <FormField label="Tags" errorText={tagError}>
          <SpaceBetween size="xs">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                addTag();
              }}
            >
              <SpaceBetween direction="horizontal" size="xs">
                <Input
                  value={tag}
                  onChange={(e) => setTag(e.detail.value)}
                  placeholder="Add a tag"
                  ariaLabel="New tag"
                  invalid={!!tagError}
                />
                <Button formAction="submit" disabled={busy || !tag}>
                  Add tag
                </Button>
              </SpaceBetween>
            </form>
            <TokenGroup
              items={c.tags.map((t) => ({ label: t, dismissLabel: `Remove tag ${t}` }))}
              onDismiss={(e) => {
                const removed = c.tags[e.detail.itemIndex];
                onChange({ tags: c.tags.filter((_, i) => i !== e.detail.itemIndex) }, `Removed the tag ${removed}.`);
              }}
            />
          </SpaceBetween>
        </FormField>
      </SpaceBetween>
    </Container>
  );
}

/** A message as a chat bubble: the customer's on the left, ours on the right with ticks for its receipts. */
function MessageItem({ message: m }: { message: Message }) {
  const outbound = m.direction === 'outbound';
  const tick = outbound ? TICKS[m.status] : undefined;
  const receiptAt = m.read_at ?? m.delivered_at ?? m.sent_at;
  return (
    <div className={`message ${outbound ? 'outbound' : 'inbound'}`} data-testid="message" data-status={m.status}>
      <MessageFile message={m} />
      {m.text && !showsFile(m) && <p className="message-text">{m.text}</p>}
      <div className="message-meta">
        {!outbound && m.analysis && (
          <>
            <SentimentBadge sentiment={m.analysis.sentiment} />
            <span className="intent">{intentLabel(m.analysis.intent.name)}</span>
          </>
        )}
        {m.reaction && <span aria-label={`Reaction ${m.reaction.emoji}`}>{m.reaction.emoji}</span>}
        <span className="message-time">
          {m.status === 'scheduled' ? `Scheduled for ${formatWhen(m.scheduled_at)}` : formatTime(m.created_at)}
        </span>
        {tick && (
          <span
            className={tick.className}
            title={`${tick.words}${m.status === 'scheduled' ? ` for ${formatWhen(m.scheduled_at)}` : receiptAt && m.status !== 'queued' ? ` ${formatWhen(receiptAt)}` : ''}`}
          >
            <span aria-hidden="true">{tick.ticks}</span>
            <span className="visually-hidden">{tick.words}</span>
          </span>
        )}
      </div>
      {m.status === 'failed' && (
        <StatusIndicator type="error">{`Not sent: ${m.error?.message ?? 'the channel refused it'}`}</StatusIndicator>
      )}
    </div>
  );
}
