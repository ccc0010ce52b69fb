import { useEffect, useRef, useState } from 'react';
import Badge from '@cloudscape-design/components/badge';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button, { type ButtonProps } from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
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
  type Message,
  type Note,
  type Page,
  type RenderedSavedReply,
  type SavedReply,
  type Suggestions,
} from '@messaging-platform/sdk';
import { useAction, useApp, useOlderPages, useResource, useSettled, useTeam } from '../context';
import { SendPaymentLink } from '../components/send-payment-link';
import { Freshness, LoadOlder } from '../components/common';
import { ErrorAlert } from '../components/errors';
import { customerContact, customerLabel, formatDateTime, formatScore, formatWhen } from '../format';
import { HANDOFF_REASONS, SentimentBadge, StatusBadge } from './inbox';
import { customerHref, follow } from '../router';

const POLL_MS = 3000;
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

/** One conversation: messages with their receipts, replies, AI suggestions and analysis, status and tags. */
export function ConversationPage({ id }: { id: string }) {
  const { client, flash } = useApp();
  const conversation = useResource((c) => c.conversations.get(id), [id], { pollMs: POLL_MS });
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  const reply = useComposer(
    (text) => client.conversations.messages.send(id, { text }),
    () => {
      setSuggestions(null);
      void conversation.reload();
    },
  );
  const savedReplies = useSavedReplyPicker(id, reply);
  // Send (the button, or Ctrl+Enter) on a bare `/shortcut` inserts the saved reply rather than sending it.
  const replyBox = { ...reply, submit: () => (savedReplies.takeSubmit() ? Promise.resolve() : reply.submit()) };
  const suggest = useAction();
  const update = useAction();
  const log = useRef<HTMLDivElement>(null);
  // Whether the message list shows its newest message: only then does a new one scroll it (never the page).
  const pinned = useRef(true);
  const c = conversation.data;
  // Messages older than the conversation's newest 20, read from the start of the list on request.
  const loadOlder = useOlderPages<Message>(
    (cursor) => client.conversations.messages.list(id, { limit: 100, ...(cursor ? { cursor } : {}) }).page(),
    c?.messages_has_more ? null : undefined,
    [id],
  );
  const messages = c ? loadOlder.merged(c.messages).sort((a, b) => a.created_at.localeCompare(b.created_at)) : [];
  const hasOlder = loadOlder.hasMore;
  const newest = messages[messages.length - 1]?.id;

  useEffect(() => {
    const el = log.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [newest]);

  if (conversation.error && !c)
    return (
      <ErrorAlert
        error={conversation.error}
        action={<Button onClick={() => void conversation.reload()}>Retry</Button>}
      />
    );
  if (!c)
    return (
      <Box textAlign="center" padding="xl">
        <Spinner /> Loading the conversation…
      </Box>
    );

  const change = async (changes: Parameters<typeof client.conversations.update>[1], done: string) => {
    const updated = await update.run(() => client.conversations.update(id, changes, { ifMatch: c.version }));
    if (updated) flash({ type: 'success', content: done });
    void conversation.reload();
  };

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={
            <>
              <Link href={customerHref(c.customer.id)} onFollow={follow}>
                {customerContact(c.customer)}
              </Link>
              {` · ${c.channel}${c.category ? ` · ${c.category}` : ''}`}
            </>
          }
          info={<StatusBadge status={c.status} />}
          actions={<SendPaymentLink conversationId={c.id} />}
        >
          {customerLabel(c.customer)}
        </Header>
      }
    >
      <SpaceBetween size="l">
        {c.handoff && (
          <Box>
            <Badge color="red">{`Handoff: ${HANDOFF_REASONS[c.handoff.reason] ?? c.handoff.reason}`}</Badge>{' '}
            <Box variant="span" color="text-body-secondary">
              The assistant handed this conversation to a person {formatDateTime(c.handoff.at)}.
            </Box>
          </Box>
        )}
        {update.error instanceof PreconditionFailedError ? (
          <Alert type="warning" dismissible onDismiss={update.clearError}>
            Someone else changed this conversation meanwhile, so your change was not made. It has been reloaded: check
            it and make your change again.
          </Alert>
        ) : (
          <ErrorAlert error={update.error} onDismiss={update.clearError} />
        )}
        <ConversationSettings
          conversation={c}
          busy={update.busy}
          onChange={(changes, done) => void change(changes, done)}
        />
        <Container
          header={
            <Header variant="h2" counter={hasOlder ? `(${messages.length} newest)` : `(${messages.length})`}>
              Messages
            </Header>
          }
        >
          <div
            className="messages"
            role="log"
            aria-label="Messages"
            aria-live="polite"
            ref={log}
            onScroll={(e) => {
              const el = e.currentTarget;
              pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
            }}
          >
            {hasOlder && (
              <Box textAlign="center">
                <Button onClick={() => void loadOlder.load()} loading={loadOlder.busy}>
                  Show older messages
                </Button>
              </Box>
            )}
            <ErrorAlert error={loadOlder.error} onDismiss={loadOlder.clearError} />
            {messages.length === 0 && <Box color="text-status-inactive">No messages yet.</Box>}
            {messages.map((m) => (
              <MessageItem key={m.id} message={m} />
            ))}
          </div>
        </Container>
        <Freshness resource={conversation} />
        <Container header={<Header variant="h2">Reply</Header>}>
          <SpaceBetween size="s">
            <ErrorAlert error={reply.error} onDismiss={reply.clearError} />
            <ErrorAlert error={suggest.error} onDismiss={suggest.clearError} />
            {suggestions && (
              <SpaceBetween size="xs">
                <Box variant="awsui-key-label">Suggested replies (choose one to use it)</Box>
                {suggestions.suggestions.length === 0 && <Box>No suggestion for this conversation.</Box>}
                <SpaceBetween direction="horizontal" size="xs">
                  {suggestions.suggestions.map((s) => (
                    <Button key={s.text} onClick={() => reply.setText(s.text)} ariaLabel={`Use suggestion: ${s.text}`}>
                      {s.text}
                    </Button>
                  ))}
                </SpaceBetween>
              </SpaceBetween>
            )}
            <ComposeField
              label="Message"
              placeholder="Write a reply, or type / for a saved reply…"
              rows={3}
              composer={replyBox}
            />
            {savedReplies.below}
            <SpaceBetween direction="horizontal" size="xs">
              <Button
                variant="primary"
                loading={reply.busy}
                disabled={!reply.text.trim()}
                onClick={() => void replyBox.submit()}
              >
                Send
              </Button>
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
            </SpaceBetween>
          </SpaceBetween>
        </Container>
        <TeamNotes conversationId={id} />
      </SpaceBetween>
    </ContentLayout>
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
        : c.savedReplies.list({ shortcut: prefix, limit: SLASH_MATCHES_SHOWN }).page(),
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
  const takeSubmit = (): boolean => {
    if (typed === undefined) return false;
    const first = shown?.[0];
    if (first && !insert.busy) void use(first);
    return true;
  };
  const status =
    typed === undefined
      ? ''
      : matches.error && !matches.loading
        ? ''
        : !shown
          ? 'Looking up saved replies\u2026'
          : shown.length === 0
            ? `No saved reply starts with /${typed}.`
            : `${shown.length === 1 ? 'One saved reply starts' : `${shown.length} saved replies start`} with /${typed}: choose one to insert it.`;
  const below = (
    <>
      {status && !shown?.length && <Box color="text-status-inactive">{status}</Box>}
      {typed !== undefined && matches.error !== undefined && !matches.loading && (
        <ErrorAlert error={matches.error} action={<Button onClick={() => void matches.reload()}>Retry</Button>} />
      )}
      {shown && shown.length > 0 && (
        <div role="group" aria-label={`Saved replies starting with /${typed ?? ''}`}>
          <SpaceBetween direction="horizontal" size="xs">
            {shown.map((r) => (
              <Button
                key={r.id}
                onClick={() => void use(r)}
                loading={insert.busy}
                ariaLabel={`Insert /${r.shortcut}: ${r.title}`}
              >
                {`/${r.shortcut} · ${r.title}`}
              </Button>
            ))}
          </SpaceBetween>
        </div>
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
  return { below, select, takeSubmit };
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
 * A text box for a reply or a note, bound to its composer (useComposer): Ctrl+Enter (⌘+Enter) submits it,
 * Escape cancels where there is a Cancel.
 */
function ComposeField(props: {
  label: string;
  placeholder: string;
  rows: number;
  composer: Pick<ReturnType<typeof useComposer>, 'text' | 'setText' | 'submit' | 'field'>;
  onCancel?: () => void;
  autoFocus?: boolean;
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
        onKeyDown={(e) => {
          if (e.detail.key === 'Enter' && (e.detail.ctrlKey || e.detail.metaKey)) void composer.submit();
          if (e.detail.key === 'Escape' && props.onCancel) props.onCancel();
        }}
      />
    </FormField>
  );
}

/** How often the notes are read again: a teammate's note shows within this, while the page is open. */
const NOTES_POLL_MS = 15_000;
const NOTES_SHOWN = 50;

/** The team's notes on the conversation, newest first, and a box to add one. The customer never sees them. */
function TeamNotes({ conversationId }: { conversationId: string }) {
  const { client, me, isAdmin } = useApp();
  const { nameOf } = useTeam();
  const notes = useResource(
    (c) => c.conversations.notes.list(conversationId, { limit: NOTES_SHOWN }).page(),
    [conversationId],
    {
      pollMs: NOTES_POLL_MS,
    },
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
    <Container header={<Header variant="h2">Status, assignee and tags</Header>}>
      <SpaceBetween size="m" direction="horizontal">
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

function Receipt({ message: m }: { message: Message }) {
  switch (m.status) {
    case 'queued':
      return <StatusIndicator type="pending">Queued</StatusIndicator>;
    case 'sent':
      return <StatusIndicator type="success" colorOverride="grey">{`Sent ${formatWhen(m.sent_at)}`}</StatusIndicator>;
    case 'delivered':
      return <StatusIndicator type="success">{`Delivered ${formatWhen(m.delivered_at)}`}</StatusIndicator>;
    case 'read':
      return <StatusIndicator type="success">{`Read ${formatWhen(m.read_at)}`}</StatusIndicator>;
    case 'failed':
      return <StatusIndicator type="error">{`Failed: ${m.error?.message ?? 'not sent'}`}</StatusIndicator>;
    default:
      return null;
  }
}

function MessageItem({ message: m }: { message: Message }) {
  const { client } = useApp();
  const [details, setDetails] = useState<Analysis | null>(null);
  const analyze = useAction();
  const outbound = m.direction === 'outbound';
  return (
    <div className={`message ${outbound ? 'outbound' : 'inbound'}`} data-testid="message" data-status={m.status}>
      <p className="message-text">{m.text}</p>
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <Box variant="small">
          {outbound ? 'You' : 'Customer'} · {formatWhen(m.created_at)}
        </Box>
        {outbound ? <Receipt message={m} /> : <SentimentBadge sentiment={m.analysis?.sentiment} />}
        {!outbound && m.analysis && <Badge color="grey">{m.analysis.intent.name.replace(/_/g, ' ')}</Badge>}
      </SpaceBetween>
      {!outbound && (
        <ExpandableSection headerText="AI analysis" variant="footer">
          <SpaceBetween size="s">
            {m.analysis ? (
              <KeyValuePairs
                columns={2}
                items={[
                  {
                    label: 'Sentiment',
                    value: `${m.analysis.sentiment.label} (score ${formatScore(m.analysis.sentiment.score)}, confidence ${Math.round(m.analysis.sentiment.confidence * 100)}%)`,
                  },
                  {
                    label: 'Intent',
                    value: `${m.analysis.intent.name} (${Math.round(m.analysis.intent.confidence * 100)}%)`,
                  },
                  { label: 'Language', value: m.analysis.language },
                  {
                    label: 'Analysed',
                    value: `${formatDateTime(m.analysis.analyzed_at)} by ${PROVIDER_NAMES[m.analysis.provider] ?? m.analysis.provider}`,
                  },
                ]}
              />
            ) : (
              <Box color="text-status-inactive">
                Not analysed yet; the background analysis runs shortly after a message arrives.
              </Box>
            )}
            {details ? (
              <KeyValuePairs
                columns={2}
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
                  void analyze.run(() => client.ai.analyze({ text: m.text })).then((a) => a && setDetails(a))
                }
              >
                Analyse entities
              </Button>
            )}
            <ErrorAlert error={analyze.error} />
          </SpaceBetween>
        </ExpandableSection>
      )}
    </div>
  );
}
