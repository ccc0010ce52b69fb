// Public: the conversation and message model (pure).
/** Conversations and messages: pure rules, no AWS imports. */
import type { MessageMedia } from '../media/media';
import type { Sender } from '../auth/principal';
import type { CustomerRef } from '../customers/customer';
import type { MessageContent, MessageType } from './message-kinds';

export const CHANNELS = ['sandbox', 'whatsapp'] as const;
export type ChannelKind = (typeof CHANNELS)[number];
export const CONVERSATION_STATUSES = ['open', 'pending', 'snoozed', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
/** The `assignee_id` list filter for conversations nobody is assigned to. */
export const UNASSIGNED = 'none';

export type HandoffReason = 'request_human' | 'complaint' | 'negative_sentiment';

/** When and why the conversation went to a human (the AI decides: ai/handoff.ts). */
export interface Handoff {
  at: string;
  reason: HandoffReason;
  /** The customer message that triggered it. */
  message_id: string;
}

export interface Conversation {
  id: string;
  tenant_id: string;
  customer: CustomerRef;
  channel: ChannelKind;
  /** The tenant's account on the channel: the WhatsApp phone_number_id; null for the sandbox. */
  channel_account_id: string | null;
  status: ConversationStatus;
  snoozed_until: string | null;
  tags: string[];
  assignee_id: string | null;
  priority: Priority;
  category: string | null;
  /** Set when the AI hands the conversation to a human; cleared when it is resolved (docs/api.md, "Handoff"). */
  handoff: Handoff | null;
  last_message_at: string | null;
  /** The last customer message: WhatsApp's 24-hour customer-service window runs from here. */
  last_inbound_at: string | null;
  /**
   * When WhatsApp's customer-service window closes (24 h after the customer's last message): after it,
   * only templates may be sent. Null on the sandbox, and before the customer first writes.
   */
  window_expires_at: string | null;
  /** Sort key of every list: the last message, or the last change. */
  last_activity_at: string;
  /** The newest message in short, for the inbox's list: who wrote it, its first words, when. */
  last_message: LastMessage | null;
  /** Customer messages since the team last replied (0 once someone answers): how much is waiting to be read. */
  unanswered_count: number;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A message as the conversation list previews it. */
export interface LastMessage {
  direction: 'inbound' | 'outbound';
  text: string;
  at: string;
}

/** How much of a message the conversation keeps for its preview: a line of the inbox list. */
export const PREVIEW_CHARS = 120;

/** The preview of a message: its text on one line, cut at a word near PREVIEW_CHARS with an ellipsis. */
export function lastMessageOf(direction: LastMessage['direction'], text: string, at: string): LastMessage {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= PREVIEW_CHARS) return { direction, text: line, at };
  const cut = line.slice(0, PREVIEW_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return { direction, text: `${(space > PREVIEW_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}\u2026`, at };
}

/** Allowed status changes. Staying in the same status is always allowed (and changes nothing). */
/** A new open conversation with no messages yet: the API's create and the first inbound message share it. */
export function newConversation(fields: {
  id: string;
  tenant_id: string;
  customer: Conversation['customer'];
  channel: ChannelKind;
  channel_account_id: Conversation['channel_account_id'];
  at: string;
  tags?: readonly string[];
  assignee_id?: string | null;
  priority?: Priority;
}): Conversation {
  const { at, tags = [], assignee_id = null, priority = 'normal', ...identity } = fields;
  return {
    ...identity,
    status: 'open',
    snoozed_until: null,
    tags: [...new Set(tags)],
    assignee_id,
    priority,
    category: null,
    handoff: null,
    last_message_at: null,
    last_inbound_at: null,
    window_expires_at: null,
    last_activity_at: at,
    last_message: null,
    unanswered_count: 0,
    created_at: at,
    updated_at: at,
    version: 1,
  };
}

export const TRANSITIONS: Record<ConversationStatus, readonly ConversationStatus[]> = {
  open: ['pending', 'snoozed', 'resolved'],
  pending: ['open', 'snoozed', 'resolved'],
  snoozed: ['open', 'pending', 'resolved'],
  resolved: ['open'],
};

export function transitionProblem(from: ConversationStatus, to: ConversationStatus): string | null {
  if (from === to || TRANSITIONS[from].includes(to)) return null;
  return `A ${from} conversation can move to ${TRANSITIONS[from].join(', ')}, not ${to}.`;
}

/**
 * A snoozed conversation whose time has come is open again: the wake-up worker applies this within a
 * minute, and any change made before it does starts from the woken conversation.
 */
export function wakeIfDue(c: Conversation, now: Date): Conversation {
  return c.status === 'snoozed' && c.snoozed_until !== null && Date.parse(c.snoozed_until) <= now.getTime()
    ? { ...c, status: 'open', snoozed_until: null }
    : c;
}

export const SERVICE_WINDOW_MS = 24 * 3600 * 1000;

/** When the service window of a conversation whose customer last wrote at `lastInboundAt` closes. */
export const serviceWindowEnd = (c: Pick<Conversation, 'channel' | 'last_inbound_at'>): string | null =>
  c.channel === 'whatsapp' && c.last_inbound_at
    ? new Date(Date.parse(c.last_inbound_at) + SERVICE_WINDOW_MS).toISOString()
    : null;

/** WhatsApp allows free-form messages only within 24 h of the customer's last message. */
export function insideServiceWindow(
  conversation: Pick<Conversation, 'channel' | 'last_inbound_at'>,
  now: Date,
): boolean {
  if (conversation.channel !== 'whatsapp') return true;
  return !!conversation.last_inbound_at && now.getTime() - Date.parse(conversation.last_inbound_at) < SERVICE_WINDOW_MS;
}

export const CONVERSATION_CHANGE_FIELDS = [
  'status',
  'snoozed_until',
  'tags',
  'assignee_id',
  'priority',
  'category',
] as const;

/** `scheduled`: waiting for its `send_at` (cancelable until then); `canceled`: cancelled before it went. */
export type MessageStatus = 'received' | 'scheduled' | 'canceled' | 'queued' | 'sent' | 'delivered' | 'read' | 'failed';
export const MESSAGE_STATUSES = [
  'received',
  'scheduled',
  'canceled',
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
] as const;

export interface Message {
  id: string;
  tenant_id: string;
  conversation_id: string;
  direction: 'inbound' | 'outbound';
  type: MessageType;
  /** What the customer reads, as text (a template's or a list's rendering, a media's caption). */
  text: string;
  /** The kind's own part (a template and its parameters, a media link, buttons or a list); null for text. */
  content: MessageContent | null;
  /** When a scheduled message goes (`send_at`); null when sent at once. */
  scheduled_at: string | null;
  status: MessageStatus;
  sender: Sender;
  channel: ChannelKind;
  provider_message_id: string | null;
  error: { code: string; message: string } | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
  updated_at: string;
  /** Inbound messages only, filled in asynchronously after the message arrives. */
  analysis: MessageAnalysis | null;
  /** The customer's reaction to this message (WhatsApp), the latest one; null when none or removed. */
  reaction?: { emoji: string; reacted_at: string } | null;
  /** A file the message carries (inbound media, or an uploaded file sent): metadata, and a download URL on reads. */
  media?: MessageMedia | null;
}

/**
 * The AI's verdict on an inbound message, as stored on it. Conversations keep it without reading it:
 * its terms (sentiment labels, intents, providers) are the AI taxonomy's, and ai/ narrows these fields.
 */
export interface MessageAnalysis {
  sentiment: { label: string; score: number; confidence: number };
  intent: { name: string; confidence: number };
  language: string;
  provider: string;
  analyzed_at: string;
}

/**
 * Delivery receipts arrive out of order: a status only ever moves forward. `failed` is accepted only
 * before delivery (a delivered message cannot fail afterwards).
 */
export const RECEIPT_ALLOWED_FROM: Record<'sent' | 'delivered' | 'read' | 'failed', MessageStatus[]> = {
  sent: ['queued'],
  delivered: ['queued', 'sent'],
  read: ['queued', 'sent', 'delivered'],
  failed: ['queued', 'sent'],
};

/**
 * A queued outbound message that no sender has taken this long after it was queued (or after the
 * outbound sweeper handed it on again) lost its hand-off (a crash, a lost invocation, a dead-lettered
 * retry): the outbound sweeper hands it to the sender again.
 */
export const OUTBOUND_TAKEOVER_MS = 30_000;

/**
 * How long after a sender's lease ended without an outcome the outbound sweeper waits for a status
 * webhook to settle the message before it declares the send's outcome unknown.
 */
export const UNKNOWN_OUTCOME_WAIT_MS = 30_000;

/**
 * The error code of a message whose sender stopped after it may have handed the message to the
 * channel: it is never sent again automatically, since the customer may already have it. A status
 * webhook for it later still moves it on (sent, delivered, read).
 */
export const SEND_OUTCOME_UNKNOWN = 'outcome_unknown';

/** The error code of a message the sender gave up on before handing it to the channel: it was not sent. */
export const SEND_GAVE_UP = 'send_gave_up';

export const RECEIPT_TIMESTAMP_FIELD = {
  sent: 'sent_at',
  delivered: 'delivered_at',
  read: 'read_at',
  failed: 'failed_at',
} as const;

/** Tags are lowercase slugs, so filters match however they were typed. */
export const TAG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/** Field order of the API representations. */
export const CONVERSATION_FIELDS = [
  'id',
  'tenant_id',
  'customer',
  'channel',
  'channel_account_id',
  'status',
  'snoozed_until',
  'tags',
  'assignee_id',
  'priority',
  'category',
  'handoff',
  'last_message_at',
  'last_inbound_at',
  'window_expires_at',
  'last_activity_at',
  'last_message',
  'unanswered_count',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof Conversation)[];

export const MESSAGE_FIELDS = [
  'id',
  'tenant_id',
  'conversation_id',
  'direction',
  'type',
  'text',
  'content',
  'scheduled_at',
  'status',
  'sender',
  'channel',
  'provider_message_id',
  'error',
  'created_at',
  'sent_at',
  'delivered_at',
  'read_at',
  'failed_at',
  'updated_at',
  'analysis',
  'reaction',
  'media',
] as const satisfies readonly (keyof Message)[];

/**
 * A note the team leaves on a conversation: never sent to the customer, and no event (webhook receivers
 * hear only what happens with the customer). Notes are kept apart from messages.
 */
export interface Note {
  id: string;
  tenant_id: string;
  conversation_id: string;
  text: string;
  author: Sender;
  created_at: string;
  /** When its author last changed the text; null while unedited. */
  edited_at: string | null;
  /** 1 when written, one more with each edit (notes stored before versions read as 1). */
  version: number;
}

export const NOTE_FIELDS = [
  'id',
  'tenant_id',
  'conversation_id',
  'text',
  'author',
  'created_at',
  'edited_at',
  'version',
] as const;
