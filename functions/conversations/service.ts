// Public: opening conversations and storing messages, for channels, bookings and the assistant.
import type { Sender } from '../auth/principal';
import { DomainError, isDomainError } from '../platform/domain-error';
import { retryOnConflict } from '../platform/retry';
import { diff } from '../platform/fields';
import { newId, newIdSeries } from '../platform/ids';
import type { EventType } from '../events/catalog';
import { eventPut, newEvent } from '../events/store';
import {
  CustomerChanged,
  customerPuts,
  findOrCreateCustomer,
  getCustomer,
  linkIdentity,
  newCustomer,
} from '../customers/store';
import { customerView, planIdentity, requirePhone, type Customer } from '../customers/customer';
import { refreshCustomerCopies } from '../customers/service';
import { whatsAppNumbersOf } from '../channels/service';
import { getUser } from '../users/store';
import { eachInParallel, transactionConditionFailed, type TransactItem } from '../platform/db';
import {
  CONVERSATION_CHANGE_FIELDS,
  RECEIPT_ALLOWED_FROM,
  RECEIPT_TIMESTAMP_FIELD,
  SEND_OUTCOME_UNKNOWN,
  SERVICE_WINDOW_MS,
  insideServiceWindow,
  serviceWindowEnd,
  lastMessageOf,
  newConversation,
  transitionProblem,
  wakeIfDue,
  type ChannelKind,
  type Conversation,
  type ConversationStatus,
  type HandoffReason,
  type Message,
  type MessageStatus,
  type Note,
  type Priority,
} from './conversation';
import {
  ActiveConversationExists,
  AssigneeInactive,
  ConversationChanged,
  activePointers,
  customerHandles,
  pointerRelease,
  releaseForeignPointer,
  userIdHandle,
  assignedConversationIds,
  bumpVersion,
  findInboundParty,
  getConversation,
  saveConversation,
  touchForOutbound,
  listConversations,
} from './store';
import {
  advanceMessage,
  findByProviderId,
  getMessage,
  messagePut,
  providerIdClaim,
  messageOutbox,
  putOutboundMessage,
  putScheduledMessage,
  releaseScheduled,
  type DueScheduledMessage,
  type MessageRef,
} from './message-store';
import { putNote } from './note-store';
import { contentOf, kindOf, textOf, type OutboundKind, type TemplateContent } from './message-kinds';
import { findTemplate } from '../templates/store';
import { renderTemplate, sendParameterProblem, unsendableReason } from '../templates/template';
import { checkNewUrl, resolveTarget, UnsafeTarget } from '../webhooks/ssrf';
import type { MessageMedia } from '../media/media';
import { uploadedMedia } from '../media/service';
import { sameSendLease, type QueuedSend } from './send-store';

/** Domain operations on conversations: each is one transaction with the events it emits. */

const conversationEvent = (c: Conversation, type: EventType, now: Date, extra: Record<string, unknown> = {}) =>
  eventPut(newEvent(c.tenant_id, type, { conversation: c, ...extra }, now));
const messageEnvelope = (m: Message, type: EventType, now: Date, id?: string) =>
  newEvent(m.tenant_id, type, { message: m, conversation_id: m.conversation_id }, now, id);
const messageEvent = (m: Message, type: EventType, now: Date) => eventPut(messageEnvelope(m, type, now));

/** One unresolved conversation per customer and channel account: opening or reopening a second is a conflict. */
function activeConflict(error: unknown): unknown {
  if (!(error instanceof ActiveConversationExists)) return error;
  return DomainError.conflict(
    'conversation_exists',
    `The customer already has an unresolved conversation on this channel: ${error.conversationId}.`,
  );
}

/**
 * Retries an optimistic read-modify-write when another writer got in first. A customer's message gets
 * more attempts than a team member's change: a burst of them into one conversation must all land, and
 * nobody is there to press retry.
 */
const withRetry = <T>(fn: () => Promise<T>, attempts = 8, longestDoubling?: number): Promise<T> =>
  retryOnConflict(fn, {
    attempts,
    longestDoubling,
    retryable: (error) => error instanceof ConversationChanged,
    exhausted: () => DomainError.conflict('concurrent_update', 'The conversation is changing too fast; retry.'),
  });

function newMessage(
  c: Conversation,
  direction: Message['direction'],
  text: string,
  sender: Sender,
  now: Date,
  providerId: string | null = null,
): Message {
  const at = now.toISOString();
  return {
    id: newId('msg'),
    tenant_id: c.tenant_id,
    conversation_id: c.id,
    direction,
    type: 'text',
    text,
    content: null,
    scheduled_at: null,
    status: direction === 'inbound' ? 'received' : 'queued',
    sender,
    channel: c.channel,
    provider_message_id: providerId,
    error: null,
    created_at: at,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    failed_at: null,
    updated_at: at,
    analysis: null,
    reaction: null,
    media: null,
  };
}

const OUTSIDE_WINDOW =
  'WhatsApp allows free-form messages only within 24 hours of the customer\u2019s last message. Send an approved ' +
  'template instead (`template`), or give `fallback_template` to have one sent when the window has closed; or wait for the customer to write.';

function assertCanSend(c: Conversation, now: Date) {
  if (!insideServiceWindow(c, now)) throw DomainError.invalid('outside_service_window', OUTSIDE_WINDOW);
}

const assigneeProblem = () =>
  DomainError.invalid('unknown_assignee', 'The assignee is not an active user of this tenant.', [
    { path: 'assignee_id', message: 'unknown user' },
  ]);

/**
 * An assignee must be an active user of the same tenant: read here for a clear error, and checked again
 * in the write's transaction (saveConversation), as the user may be disabled in between.
 */
async function assertAssignee(tenantId: string, assigneeId: string | null | undefined): Promise<void> {
  if (!assigneeId) return;
  const user = await getUser(tenantId, assigneeId);
  if (!user || user.status !== 'active') throw assigneeProblem();
}

/**
 * The assignee a change keeps: the current one, except that reopening a resolved conversation does not
 * bring back a user disabled since (their conversations went back to the team when they were).
 */
async function keptAssignee(current: Conversation, status: ConversationStatus): Promise<string | null> {
  const reopened = current.status === 'resolved' && status !== 'resolved';
  if (!reopened || !current.assignee_id) return current.assignee_id;
  const user = await getUser(current.tenant_id, current.assignee_id);
  return user?.status === 'active' ? current.assignee_id : null;
}

/** A WhatsApp conversation needs a connected number: the one named, or the tenant's only one. Other channels have none. */
async function channelAccount(
  tenantId: string,
  channel: ChannelKind,
  named: string | null | undefined,
): Promise<string | null> {
  if (channel !== 'whatsapp') return null;
  const numbers = await whatsAppNumbersOf(tenantId);
  const accountId = named ?? (numbers.length === 1 ? (numbers[0] ?? null) : null);
  if (!accountId || !numbers.includes(accountId)) {
    throw DomainError.invalid(
      'channel_not_connected',
      'Connect the WhatsApp number first (POST /channels/whatsapp), and name it in channel_account_id if there are several.',
    );
  }
  return accountId;
}

export interface OpenInput {
  channel: ChannelKind;
  channel_account_id?: string | null;
  customer: { id?: string; phone?: string; name?: string };
  tags?: string[];
  priority?: Priority;
  assignee_id?: string | null;
  message?: { text: string };
}

/** Opens a conversation (with a first outbound message, if given); the customer is found or created by phone. */
/** The customer's last message to a business number, from their conversations on it (one index read). */
async function lastInboundOnNumber(
  tenantId: string,
  customerId: string,
  channelAccountId: string | null,
): Promise<string | null> {
  const page = await listConversations(tenantId, { customer_id: customerId, channel: 'whatsapp' }, { limit: 100 });
  return page.items
    .filter((c) => c.channel_account_id === channelAccountId && c.last_inbound_at)
    .reduce<string | null>((latest, c) => (latest && latest > c.last_inbound_at! ? latest : c.last_inbound_at), null);
}

export async function openConversation(tenantId: string, input: OpenInput, sender: Sender, now: Date) {
  await assertAssignee(tenantId, input.assignee_id);
  const channelAccountId = await channelAccount(tenantId, input.channel, input.channel_account_id);
  const phone = input.customer.phone !== undefined ? requirePhone(input.customer.phone, 'customer.phone') : undefined;
  const customer = input.customer.id
    ? await getCustomer(tenantId, input.customer.id)
    : await findOrCreateCustomer(tenantId, phone ?? '', input.customer.name ?? null, now);
  if (!customer)
    throw DomainError.invalid('unknown_customer', 'No customer has this id.', [
      { path: 'customer.id', message: 'not found' },
    ]);
  const at = now.toISOString();
  const conversation = newConversation({
    id: newId('conv'),
    tenant_id: tenantId,
    customer: customerView(customer),
    channel: input.channel,
    channel_account_id: channelAccountId,
    at,
    tags: input.tags,
    assignee_id: input.assignee_id,
    priority: input.priority,
  });
  // WhatsApp's window is the business number's and the customer's, not one conversation's: a new
  // conversation starts from the customer's last message to that number in an earlier one.
  if (conversation.channel === 'whatsapp') {
    conversation.last_inbound_at = await lastInboundOnNumber(tenantId, customer.id, channelAccountId);
    conversation.window_expires_at = serviceWindowEnd(conversation);
  }
  let message: Message | undefined;
  if (input.message) {
    assertCanSend(conversation, now);
    message = newMessage(conversation, 'outbound', input.message.text, sender, now);
    conversation.last_message_at = at;
    conversation.last_message = lastMessageOf('outbound', input.message.text, at);
  }
  const writes = [
    conversationEvent(conversation, 'conversation.created', now),
    ...(message ? [messagePut(message)] : []),
  ];
  try {
    // A concurrent open for the same customer fails the transaction; the retry finds its conversation (409).
    await withRetry(() => saveConversation(undefined, conversation, writes));
  } catch (error) {
    if (error instanceof AssigneeInactive) throw assigneeProblem();
    throw activeConflict(error);
  }
  return { conversation, message };
}

/** What a send asks for: the kind, and what to do should the window be closed; `sendAt` schedules it. */
export interface SendInput {
  kind: OutboundKind;
  fallbackTemplate?: TemplateContent;
  sendAt?: Date;
}

/**
 * The template a send names, on the conversation's channel account, checked: it exists, it is approved and
 * the parameters fit it. Returns the kind to store and the text the customer reads.
 */
async function resolveTemplate(c: Conversation, ref: TemplateContent, path: string) {
  const template = await findTemplate(
    c.tenant_id,
    c.channel === 'whatsapp' ? c.channel_account_id : null,
    ref.name,
    ref.language,
  );
  if (!template)
    throw DomainError.invalidField(
      'template_not_found',
      path,
      `No template ${ref.name} (${ref.language}) on this conversation\u2019s ${c.channel === 'whatsapp' ? 'number' : 'sandbox'}: create it (POST /templates) and wait for its approval.`,
    );
  const unsendable = unsendableReason(template);
  if (unsendable) throw DomainError.invalidField('template_not_approved', path, unsendable);
  const problem = sendParameterProblem(template, ref.parameters);
  if (problem)
    throw DomainError.invalidField(
      'invalid_template_parameters',
      problem.path.replace('template', path),
      problem.message,
    );
  return {
    kind: { type: 'template', template: { ...ref, template_id: template.id } } as OutboundKind,
    text: renderTemplate(template, ref.parameters),
  };
}

/**
 * The file a media kind sends: a link is fetched by Meta, but checked like a webhook URL first (https,
 * public, no metadata address); an uploaded `media_id` must be this tenant's and within WhatsApp's limits,
 * and becomes the message's `media`.
 */
async function mediaToSend(tenantId: string, kind: OutboundKind): Promise<MessageMedia | null> {
  if (kind.type === 'text' || kind.type === 'template' || kind.type === 'interactive') return null;
  if (kind.media.media_id)
    return uploadedMedia(tenantId, kind.media.media_id, kind.type, `${kind.type}.media_id`, kind.media);
  try {
    await resolveTarget(checkNewUrl(kind.media.url ?? ''));
    return null;
  } catch (error) {
    if (error instanceof UnsafeTarget)
      throw DomainError.invalidField('unsafe_media_url', `${kind.type}.url`, error.message);
    throw error;
  }
}

/**
 * An outbound message of any kind. Within the service window (or a template) it is queued at once: the
 * conversation's activity moves first (one conditional UpdateItem that also checks the window), then
 * the message is put, its own outbox record. Outside the window a `fallback_template` goes instead, or
 * the send is refused naming the fix. With `sendAt` it waits as `scheduled` (the business scheduler
 * decides the window at its time). No transaction: a crash between the two writes leaves the activity
 * moved without the message; the caller's retry sends it.
 */
export async function sendMessage(
  tenantId: string,
  conversationId: string,
  input: SendInput,
  sender: Sender,
  now: Date,
) {
  // A plain send reads nothing first: the activity's conditional write checks that the conversation exists
  // and that its window is open. A template, a fallback or a schedule needs the conversation before that.
  const readFirst =
    input.sendAt !== undefined || input.kind.type === 'template' || input.fallbackTemplate !== undefined;
  const current = readFirst ? await getConversation(tenantId, conversationId) : undefined;
  if (readFirst && !current) throw DomainError.notFound('The conversation');
  const media = await mediaToSend(tenantId, input.kind);
  // A document sent by id keeps the name it was uploaded with, unless the send names it.
  if (media?.filename && input.kind.type === 'document' && !input.kind.media.filename)
    input = { ...input, kind: { ...input.kind, media: { ...input.kind.media, filename: media.filename } } };
  let kind = input.kind;
  let text = textOf(kind);
  if (current) {
    if (kind.type === 'template') ({ kind, text } = await resolveTemplate(current, kind.template, 'template'));
    if (input.fallbackTemplate) await resolveTemplate(current, input.fallbackTemplate, 'fallback_template');
  }

  if (current && input.sendAt && input.sendAt.getTime() > now.getTime()) {
    const scheduled: Message = {
      ...newMessage(current, 'outbound', text, sender, now),
      type: kind.type,
      content: contentOf(kind),
      media,
      status: 'scheduled',
      scheduled_at: input.sendAt.toISOString(),
    };
    await putScheduledMessage(scheduled, input.fallbackTemplate ?? null);
    return scheduled;
  }

  // Without a fallback, the conditional write below refuses a send outside the window.
  if (current && input.fallbackTemplate && kind.type !== 'template' && !insideServiceWindow(current, now))
    ({ kind, text } = await resolveTemplate(current, input.fallbackTemplate, 'fallback_template'));
  // A fallback template replaced the file: it carries none.
  return queueOutbound(
    tenantId,
    conversationId,
    { kind, text, media: kind === input.kind ? media : null },
    sender,
    now,
  );
}

/**
 * A message the platform writes (a payment's link, a booking's notification, a reminder's list of free
 * times and the reply to its tap), queued as sendMessage queues one: text or interactive, with no
 * template, file or schedule to resolve, so its callers' bundles carry none of those.
 */
export const sendPlatformMessage = (
  tenantId: string,
  conversationId: string,
  kind: Extract<OutboundKind, { type: 'text' | 'interactive' }>,
  sender: Sender,
  now: Date,
) => queueOutbound(tenantId, conversationId, { kind, text: textOf(kind), media: null }, sender, now);

/** A plain text message the platform writes (sendPlatformMessage). */
export const sendText = (tenantId: string, conversationId: string, text: string, sender: Sender, now: Date) =>
  sendPlatformMessage(tenantId, conversationId, { type: 'text', text }, sender, now);

/** The send itself, its kind resolved: the conversation's activity moves (checking the window), then the message is put. */
async function queueOutbound(
  tenantId: string,
  conversationId: string,
  resolved: { kind: OutboundKind; text: string; media: MessageMedia | null },
  sender: Sender,
  now: Date,
): Promise<Message> {
  const { kind, text, media } = resolved;
  const at = now.toISOString();
  const windowStart = kind.type === 'template' ? null : new Date(now.getTime() - SERVICE_WINDOW_MS).toISOString();
  const touched = await touchForOutbound(
    tenantId,
    conversationId,
    at,
    windowStart,
    lastMessageOf('outbound', text, at),
  );
  let conversation = touched.ok ? touched.conversation : undefined;
  if (!touched.ok) {
    if (!touched.current) throw DomainError.notFound('The conversation');
    if (kind.type !== 'template') assertCanSend(touched.current, now);
    // Only a newer activity (a concurrent message) is left: keep it, and count this change.
    conversation = await bumpVersion(tenantId, conversationId);
    if (!conversation) throw DomainError.notFound('The conversation');
  }
  const message: Message = {
    ...newMessage(conversation as Conversation, 'outbound', text, sender, now),
    type: kind.type,
    content: contentOf(kind),
    media,
  };
  await putOutboundMessage(message, conversation as Conversation);
  return message;
}

export interface ConversationPatch {
  status?: ConversationStatus;
  snoozed_until?: string | null;
  tags?: string[];
  assignee_id?: string | null;
  priority?: Priority;
  category?: string | null;
}

export async function updateConversation(
  tenantId: string,
  conversationId: string,
  patch: ConversationPatch,
  expectedVersion: number | undefined,
  now: Date,
) {
  await assertAssignee(tenantId, patch.assignee_id);
  return withRetry(async () => {
    const before = await getConversation(tenantId, conversationId);
    if (!before) throw DomainError.notFound('The conversation');
    if (expectedVersion !== undefined && expectedVersion !== before.version) throw DomainError.versionMismatch();
    // A snooze whose time has passed is over, even if the wake-up worker has not come by yet.
    const current = wakeIfDue(before, now);
    const status = patch.status ?? current.status;
    const problem = transitionProblem(current.status, status);
    if (problem) throw DomainError.invalidField('invalid_status_transition', 'status', problem);
    // A time for a conversation that will not be snoozed would be dropped without a word.
    if (patch.snoozed_until && status !== 'snoozed')
      throw DomainError.invalidField('field_requires_status', 'snoozed_until', 'only with `status: snoozed`');
    const snoozedUntil =
      status === 'snoozed'
        ? (patch.snoozed_until ?? (current.status === 'snoozed' ? current.snoozed_until : null))
        : null;
    if (status === 'snoozed' && !snoozedUntil) {
      throw DomainError.invalid('snoozed_until_required', 'Snoozing needs `snoozed_until`.', [
        { path: 'snoozed_until', message: 'required when status is snoozed' },
      ]);
    }
    if (snoozedUntil && Date.parse(snoozedUntil) <= now.getTime()) {
      throw DomainError.invalid('snoozed_until_in_past', '`snoozed_until` must be in the future.', [
        { path: 'snoozed_until', message: 'must be in the future' },
      ]);
    }
    const candidate: Conversation = {
      ...current,
      status,
      snoozed_until: snoozedUntil,
      tags: patch.tags ? [...new Set(patch.tags)] : current.tags,
      assignee_id: patch.assignee_id !== undefined ? patch.assignee_id : await keptAssignee(current, status),
      priority: patch.priority ?? current.priority,
      category: patch.category !== undefined ? patch.category : current.category,
      // Resolving ends the handoff episode: the next one can hand off again.
      handoff: status === 'resolved' ? null : current.handoff,
    };
    // With If-Match, losing a race is the caller's version mismatch, not a silent retry.
    try {
      return await saveUpdate(before, candidate, now);
    } catch (error) {
      if (error instanceof ConversationChanged && expectedVersion !== undefined) throw DomainError.versionMismatch();
      // Disabled since read: an assignment asked for is refused; one kept by a reopening is read again.
      if (error instanceof AssigneeInactive) {
        if (patch.assignee_id !== undefined) throw assigneeProblem();
        throw new ConversationChanged();
      }
      throw activeConflict(error);
    }
  });
}

/**
 * Saves `candidate` as the next version of `before`, at the top of the inbox, with a `conversation.updated`
 * event listing what changed; `before` itself when nothing did.
 */
async function saveUpdate(before: Conversation, candidate: Conversation, now: Date): Promise<Conversation> {
  const changes = diff(before as never, candidate as never, CONVERSATION_CHANGE_FIELDS);
  if (Object.keys(changes).length === 0) return before;
  const at = now.toISOString();
  const after: Conversation = { ...candidate, last_activity_at: at, updated_at: at, version: before.version + 1 };
  await saveConversation(before, after, [conversationEvent(after, 'conversation.updated', now, { changes })]);
  return after;
}

/**
 * One pass of a disabled user's release: returns their unresolved conversations that the assignee index
 * shows to the team's queue (nobody assigned), each with a `conversation.updated` event, as a `PATCH`
 * would. A user enabled again meanwhile keeps theirs; a conversation reassigned or resolved meanwhile is
 * left as it is. The index may not show an assignment committed just before the disable yet, so the
 * release reaction runs further passes once it has settled (release-reaction.ts). Returns how many it
 * released.
 */
export async function releaseAssignments(tenantId: string, userId: string, now: Date): Promise<number> {
  const user = await getUser(tenantId, userId);
  if (user?.status !== 'disabled') return 0;
  const started = Date.now();
  let released = 0;
  await eachInParallel(await assignedConversationIds(tenantId, userId), 8, async (id) => {
    const at = new Date(now.getTime() + (Date.now() - started));
    const done = await withRetry(async () => {
      const before = await getConversation(tenantId, id);
      if (!before || before.assignee_id !== userId || before.status === 'resolved') return false;
      // A snooze already over ends with it, in the same change (as a PATCH would), not a minute later.
      await saveUpdate(before, { ...wakeIfDue(before, at), assignee_id: null }, at);
      return true;
    });
    if (done) released++;
  });
  return released;
}

/** Leaves a team note on a conversation: stored with its author, never sent, no event. */
export async function addNote(tenantId: string, conversationId: string, text: string, author: Sender, now: Date) {
  const note: Note = {
    id: newId('note'),
    tenant_id: tenantId,
    conversation_id: conversationId,
    text,
    author,
    created_at: now.toISOString(),
    edited_at: null,
    version: 1,
  };
  if (!(await putNote(note))) throw DomainError.notFound('The conversation');
  return note;
}

/**
 * Wakes a snoozed conversation whose time has come: open again, at the top of the inbox, with a
 * `conversation.updated` event. Undefined when there was nothing to wake (already woken, re-snoozed, gone).
 */
export async function wakeSnoozed(tenantId: string, conversationId: string, now: Date) {
  return withRetry(async () => {
    const before = await getConversation(tenantId, conversationId);
    if (!before) return undefined;
    const woken = wakeIfDue(before, now);
    if (woken === before) return undefined;
    return saveUpdate(before, woken, now);
  });
}

/**
 * Hands the conversation to a human: sets `handoff` and emits `conversation.handoff`, once per episode
 * (until the conversation is resolved). Returns the conversation, or undefined when nothing changed.
 */
export async function handOff(
  tenantId: string,
  conversationId: string,
  reason: HandoffReason,
  messageId: string,
  now: Date,
) {
  return withRetry(async () => {
    const before = await getConversation(tenantId, conversationId);
    if (!before || before.handoff || before.status === 'resolved') return undefined;
    const at = now.toISOString();
    const after: Conversation = {
      ...before,
      handoff: { at, reason, message_id: messageId },
      updated_at: at,
      version: before.version + 1,
    };
    await saveConversation(before, after, [
      conversationEvent(after, 'conversation.handoff', now, { reason, message_id: messageId }),
    ]);
    return after;
  });
}

export interface InboundMessage {
  /** The customer's phone number; null when WhatsApp withheld it (then `whatsAppUserId` names them). */
  phone: string | null;
  /** Meta's business-scoped user id (BSUID), and the WhatsApp username the message showed. */
  whatsAppUserId?: string | null;
  whatsAppUsername?: string | null;
  name: string | null;
  text: string;
  /** The provider's message id (WhatsApp wamid): a repeat delivery of the same id is ignored. */
  providerId: string | null;
  /**
   * When the customer wrote, by the provider's clock (WhatsApp's `timestamp`): the service window runs
   * from it, so a webhook that arrives late does not look like a fresh window. Never later than now.
   */
  sentAt?: Date;
  /** A file the customer sent: stored already (the sandbox), or `pending` until the media fetcher copies it. */
  media?: MessageMedia | null;
  /** The provider's id of a pending file (WhatsApp's media id), kept on the item for the fetcher only. */
  mediaSourceId?: string | null;
  /**
   * What a tapped quick reply or list row carried back that a stream reaction acts on (a reminder's
   * answer): kept on the message item, never in the API's view.
   */
  replyPayload?: string | null;
}

/** The later of two ISO times (null counts as the earliest). */
const laterOf = (a: string | null, b: string) => (a && a > b ? a : b);

/**
 * A burst of customer messages into one conversation: each writer pauses up to 640 ms between attempts,
 * about 3 s in all on average and under 6 s at worst (inside the 10 s function timeout), so a slow moment
 * of the table cannot exhaust a burst's patience.
 */
const INBOUND_ATTEMPTS = 14;
const INBOUND_LONGEST_DOUBLING = 6;

/**
 * The customer a message comes from, and their active conversation on the channel account. One read
 * finds the customers known by the message's phone and BSUID and the pointers under both; a message that
 * teaches us an identity links it first (planIdentity), and a customer with a handle the message did not
 * carry (a BSUID-only message from a customer we know by phone) costs one more read of its pointers.
 * A new customer is not written here: the caller creates them in the conversation's own transaction.
 */
async function inboundParty(
  tenantId: string,
  channel: ChannelKind,
  channelAccountId: string | null,
  inbound: InboundMessage,
  now: Date,
): Promise<{
  customer: Customer;
  activeId: string | undefined;
  activeHandle: string | undefined;
  created: boolean;
  linked: boolean;
}> {
  const seen = {
    phone: inbound.phone,
    userId: inbound.whatsAppUserId ?? null,
    username: inbound.whatsAppUsername ?? null,
  };
  const party = await findInboundParty(tenantId, channel, channelAccountId, seen);
  const plan = planIdentity(party, seen, now);
  let pointers = party.pointers;
  let customer: Customer;
  if (plan.kind === 'create')
    customer = newCustomer(tenantId, seen.phone, inbound.name, now, { userId: seen.userId, username: seen.username });
  else if (plan.kind === 'known') customer = plan.customer;
  else {
    // The other customer's active conversation stays theirs, but no longer holds the BSUID's pointer.
    const taken = plan.kind === 'repoint' && seen.userId ? userIdHandle(seen.userId) : undefined;
    const takenConversation = taken ? pointers.get(taken) : null;
    const release =
      taken && takenConversation ? [pointerRelease(tenantId, channel, channelAccountId, taken, takenConversation)] : [];
    try {
      await linkIdentity(plan.before, plan.after, plan.kind === 'repoint' ? plan.previous : undefined, release);
    } catch (error) {
      // Someone else changed these customers meanwhile: read again.
      if (error instanceof CustomerChanged) throw new ConversationChanged();
      throw error;
    }
    customer = plan.after;
    pointers = new Map();
  }
  // A conversation holds the pointer under one handle: the others need reading only if it was not found.
  const handles = customerHandles(customer);
  const unread = handles.filter((h) => !pointers.has(h));
  if (unread.length && !handles.some((h) => pointers.get(h)))
    pointers = new Map([...pointers, ...(await activePointers(tenantId, channel, channelAccountId, unread))]);
  const activeHandle = handles.find((h) => pointers.get(h));
  return {
    customer,
    activeId: activeHandle ? (pointers.get(activeHandle) ?? undefined) : undefined,
    activeHandle,
    created: plan.kind === 'create',
    linked: plan.kind === 'link' || plan.kind === 'repoint',
  };
}

/**
 * A customer message joins the customer's current unresolved conversation on that channel; after the
 * last one was resolved, it opens a new conversation. A snoozed conversation wakes up (open).
 * Returns undefined for a duplicate delivery.
 */
export async function receiveInbound(
  tenantId: string,
  channel: ChannelKind,
  channelAccountId: string | null,
  inbound: InboundMessage,
  now: Date,
) {
  // A customer who gained an identity (linked on any attempt): their copies are brought up to them after.
  let linked: Customer | undefined;
  let received;
  try {
    received = await withRetry(
      async () => {
        const party = await inboundParty(tenantId, channel, channelAccountId, inbound, now);
        const { customer, activeId, created } = party;
        if (party.linked) linked = customer;
        const current = activeId ? await getConversation(tenantId, activeId) : undefined;
        if (current && party.activeHandle && current.customer.id !== customer.id) {
          // A pointer another customer's conversation holds under the BSUID this customer took from them (it was
          // reopened since): it is not theirs. Free it, and read again. Or the customer was created a moment
          // ago and the read saw their conversation's pointer but not them yet: then nothing is freed.
          await releaseForeignPointer(tenantId, channel, channelAccountId, party.activeHandle, current.id, customer.id);
          throw new ConversationChanged();
        }
        const at = now.toISOString();
        const base: Conversation =
          current && current.status !== 'resolved'
            ? current
            : newConversation({
                id: newId('conv'),
                tenant_id: tenantId,
                customer: customerView(customer),
                channel,
                channel_account_id: channelAccountId,
                at,
              });
        const isNew = base !== current;
        const wrote = inbound.sentAt && inbound.sentAt < now ? inbound.sentAt.toISOString() : at;
        const after: Conversation = {
          ...base,
          status: base.status === 'snoozed' ? 'open' : base.status,
          snoozed_until: base.status === 'snoozed' ? null : base.snoozed_until,
          last_message_at: at,
          last_inbound_at: laterOf(isNew ? null : base.last_inbound_at, wrote),
          window_expires_at: serviceWindowEnd({
            channel,
            last_inbound_at: laterOf(isNew ? null : base.last_inbound_at, wrote),
          }),
          last_activity_at: at,
          last_message: lastMessageOf('inbound', inbound.text, at),
          unanswered_count: (isNew ? 0 : base.unanswered_count) + 1,
          updated_at: at,
          version: isNew ? 1 : base.version + 1,
        };
        const items: TransactItem[] = created ? customerPuts(customer) : [];
        // Events in causal order: the conversation opens (or wakes) before the message arrives in it.
        if (isNew) items.push(conversationEvent(after, 'conversation.created', now));
        else if (base.status !== after.status) {
          items.push(
            conversationEvent(after, 'conversation.updated', now, {
              changes: diff(base as never, after as never, CONVERSATION_CHANGE_FIELDS),
            }),
          );
        }
        const message: Message = {
          ...newMessage(after, 'inbound', inbound.text, { type: 'customer', id: customer.id }, now, inbound.providerId),
          media: inbound.media ?? null,
        };
        items.push(
          messagePut(message, {
            mediaSourceId: inbound.mediaSourceId ?? undefined,
            replyPayload: inbound.replyPayload ?? undefined,
          }),
          messageEvent(message, 'conversation.message.received', now),
        );
        if (inbound.providerId)
          items.push(
            providerIdClaim(channel, inbound.providerId, {
              tenant_id: tenantId,
              conversation_id: after.id,
              message_id: message.id,
            }),
          );
        try {
          await saveConversation(isNew ? undefined : base, after, items, activeId ?? null);
        } catch (error) {
          // Someone opened a conversation for this customer meanwhile: retry, and join it.
          if (error instanceof ActiveConversationExists) throw new ConversationChanged();
          throw error;
        }
        return { conversation: after, message };
      },
      INBOUND_ATTEMPTS,
      INBOUND_LONGEST_DOUBLING,
    );
  } catch (error) {
    // Only the provider-id claim can fail on its own: this exact message was already received.
    if (
      inbound.providerId &&
      (transactionConditionFailed(error) || isDomainError(error, 'conflict')) &&
      (await findByProviderId(tenantId, channel, inbound.providerId))
    )
      return undefined;
    throw error;
  }
  if (linked) await refreshCustomerCopies(tenantId, linked);
  return received;
}

/**
 * The channel accepted the message: record its provider id and emit `conversation.message.sent`. `from`
 * is the status it may be in: queued, or failed when settling a send whose outcome was unknown (the
 * provider had it after all; the error goes).
 */
export async function markSent(
  ref: MessageRef,
  channel: ChannelKind,
  providerId: string,
  now: Date,
  from: MessageStatus[] = RECEIPT_ALLOWED_FROM.sent,
): Promise<boolean> {
  const message = await getMessage(ref);
  if (!message) return false;
  const at = now.toISOString();
  const settled = message.status === 'failed' ? { error: null, failed_at: null } : {};
  const sent: Message = {
    ...message,
    ...settled,
    status: 'sent',
    provider_message_id: providerId,
    sent_at: at,
    updated_at: at,
  };
  // One transaction with the provider id's item: a receipt can find the message only once it is sent, so
  // none can move it on in between and leave this write behind.
  return advanceMessage(
    ref,
    'sent',
    from,
    {
      ...settled,
      provider_message_id: providerId,
      sent_at: at,
      updated_at: at,
      ...messageOutbox(sent, [messageEnvelope(sent, 'conversation.message.sent', now)]),
    },
    [providerIdClaim(channel, providerId, ref)],
  );
}

/**
 * The sender gives up on a queued message: failed with `error` and `conversation.message.failed`, only
 * if it is still queued under the same send lease (or none) as `send` saw.
 */
export async function giveUpSend(
  send: QueuedSend,
  error: { code: string; message: string },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const failed: Message = { ...send.message, status: 'failed', error, failed_at: at, updated_at: at };
  return advanceMessage(
    send.ref,
    'failed',
    ['queued'],
    {
      error,
      failed_at: at,
      updated_at: at,
      ...messageOutbox(failed, [messageEnvelope(failed, 'conversation.message.failed', now)]),
    },
    [],
    sameSendLease(send),
  );
}

/**
 * A channel's status names a message still queued (its send's answer was lost or is not recorded yet),
 * or recorded failed with an unknown outcome: record it as sent with that provider id. False when it is no longer queued or the id is taken.
 */
export async function markSentIfQueued(
  ref: MessageRef,
  channel: ChannelKind,
  providerId: string,
  now: Date,
): Promise<boolean> {
  // Also one the sweeper recorded failed with an unknown outcome: the provider had it after all. A second
  // look when the first write finds the message changed: the sweeper may have recorded that just now.
  for (let look = 0; look < 2; look++) {
    const message = await getMessage(ref);
    const unknown = message?.status === 'failed' && message.error?.code === SEND_OUTCOME_UNKNOWN;
    if (!message || !(unknown || RECEIPT_ALLOWED_FROM.sent.includes(message.status))) return false;
    try {
      if (await markSent(ref, channel, providerId, now, unknown ? ['failed'] : RECEIPT_ALLOWED_FROM.sent)) return true;
    } catch (error) {
      if (transactionConditionFailed(error)) return false;
      throw error;
    }
  }
  return false;
}

const RECEIPT_EVENTS = {
  delivered: 'conversation.message.delivered',
  read: 'conversation.message.read',
  failed: 'conversation.message.failed',
} as const;

/**
 * The sandbox provider accepted a message and reported its receipts at once: the message moves from
 * queued to its last status in one conditional write, with `sent` and each receipt's event in order.
 * A redelivered send finds it no longer queued and changes nothing. Nothing looks sandbox provider ids
 * up (their receipts are applied here), so no provider-id item is written.
 */
export async function recordSandboxSend(
  message: Message,
  providerId: string,
  receipts: ('delivered' | 'read')[],
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  let current: Message = { ...message, status: 'sent', provider_message_id: providerId, sent_at: at, updated_at: at };
  // Ids of one millisecond, so the dispatcher stores the three as one item (events/store).
  const [sentId, ...receiptIds] = newIdSeries('evt', 1 + receipts.length);
  const events = [messageEnvelope(current, 'conversation.message.sent', now, sentId)];
  for (const [i, status] of receipts.entries()) {
    current = {
      ...current,
      status,
      [RECEIPT_TIMESTAMP_FIELD[status]]: at,
      // A read receipt implies delivery, even when the delivered receipt never came.
      delivered_at: current.delivered_at ?? (status === 'read' ? at : null),
    };
    events.push(messageEnvelope(current, RECEIPT_EVENTS[status], now, receiptIds[i]));
  }
  const { status, provider_message_id, sent_at, delivered_at, read_at, updated_at } = current;
  return advanceMessage(
    { tenant_id: message.tenant_id, conversation_id: message.conversation_id, message_id: message.id },
    status,
    RECEIPT_ALLOWED_FROM.sent,
    { provider_message_id, sent_at, delivered_at, read_at, updated_at, ...messageOutbox(current, events) },
  );
}

export async function markFailed(ref: MessageRef, error: { code: string; message: string }, now: Date): Promise<void> {
  const message = await getMessage(ref);
  if (!message) return;
  const at = now.toISOString();
  const failed: Message = { ...message, status: 'failed', error, failed_at: at, updated_at: at };
  await advanceMessage(ref, 'failed', RECEIPT_ALLOWED_FROM.failed, {
    error,
    failed_at: at,
    updated_at: at,
    ...messageOutbox(failed, [messageEnvelope(failed, 'conversation.message.failed', now)]),
  });
}

/**
 * A delivery receipt from a channel (a WhatsApp status webhook) for the message its provider id names,
 * as found by findByProviderId. Late or repeated ones never move a status backwards (false).
 */
export async function applyReceipt(
  ref: MessageRef,
  status: 'delivered' | 'read' | 'failed',
  at: Date,
  error: { code: string; message: string } | null = null,
): Promise<boolean> {
  const message = await getMessage(ref);
  if (!message || !RECEIPT_ALLOWED_FROM[status].includes(message.status)) return false;
  const stamp = at.toISOString();
  const fields: Record<string, unknown> = { [RECEIPT_TIMESTAMP_FIELD[status]]: stamp, updated_at: stamp };
  // A read receipt implies delivery, even when the delivered receipt never came.
  if (status === 'read' && !message.delivered_at) fields.delivered_at = stamp;
  if (error) fields.error = error;
  const updated = { ...message, ...fields, status } as Message;
  return advanceMessage(ref, status, RECEIPT_ALLOWED_FROM[status], {
    ...fields,
    ...messageOutbox(updated, [messageEnvelope(updated, RECEIPT_EVENTS[status], at)]),
  });
}

/** A scheduled message that cannot go at its time: failed with its event. */
async function failScheduled(m: Message, error: { code: string; message: string }, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const failed: Message = { ...m, status: 'failed', error, failed_at: at, updated_at: at };
  return advanceMessage(refOf(m), 'failed', ['scheduled'], {
    error,
    failed_at: at,
    updated_at: at,
    ...messageOutbox(failed, [messageEnvelope(failed, 'conversation.message.failed', now)]),
  });
}

const refOf = (m: Message): MessageRef => ({
  tenant_id: m.tenant_id,
  conversation_id: m.conversation_id,
  message_id: m.id,
});

/**
 * A scheduled message's time has come: within the window (or a template) it is queued as it is; outside,
 * its `fallback_template` is queued instead, or it fails (`outside_service_window`, with its event).
 * Returns the message to hand to the sender, or undefined (failed, or already released by another run).
 */
export async function releaseScheduledMessage(due: DueScheduledMessage, now: Date): Promise<MessageRef | undefined> {
  const m = due.message;
  const conversation = await getConversation(m.tenant_id, m.conversation_id);
  if (!conversation) {
    await failScheduled(m, { code: 'conversation_gone', message: 'The conversation no longer exists.' }, now);
    return undefined;
  }
  let kind = kindOf(m);
  let text = m.text;
  if (kind.type !== 'template' && !insideServiceWindow(conversation, now)) {
    if (!due.fallbackTemplate) {
      await failScheduled(m, { code: 'outside_service_window', message: OUTSIDE_WINDOW }, now);
      return undefined;
    }
    try {
      ({ kind, text } = await resolveTemplate(conversation, due.fallbackTemplate, 'fallback_template'));
    } catch (error) {
      if (!isDomainError(error)) throw error;
      await failScheduled(m, { code: error.code, message: error.detail }, now);
      return undefined;
    }
  }
  const released: Message = { ...m, type: kind.type, text, content: contentOf(kind), status: 'queued' };
  if (!(await releaseScheduled(released, now))) return undefined;
  // The conversation's activity moves now that the message goes (a newer activity is kept).
  const at = now.toISOString();
  await touchForOutbound(m.tenant_id, m.conversation_id, at, null, lastMessageOf('outbound', text, at));
  return refOf(m);
}

/** Cancels a scheduled message before it goes; 409 once it has gone (or was cancelled). */
export async function cancelScheduledMessage(ref: MessageRef, now: Date): Promise<Message> {
  const message = await getMessage(ref);
  if (!message) throw DomainError.notFound('The message');
  const at = now.toISOString();
  const canceled = await advanceMessage(ref, 'canceled', ['scheduled'], { updated_at: at });
  if (!canceled)
    throw DomainError.conflict(
      'message_not_scheduled',
      `Only a scheduled message can be cancelled; this one is ${message.status === 'scheduled' ? 'going now' : message.status}.`,
    );
  return { ...message, status: 'canceled', updated_at: at };
}

/**
 * A template message the platform sends on its own (a booking reminder), built and checked but not
 * written: the caller puts it (`messagePut`) in the transaction of the change it belongs to, then calls
 * `recordOutboundActivity`. Throws a DomainError when the template cannot be sent on this conversation.
 */
export async function prepareTemplateMessage(
  conversation: Conversation,
  template: TemplateContent,
  sender: Sender,
  now: Date,
): Promise<Message> {
  const { kind, text } = await resolveTemplate(conversation, template, 'template');
  return { ...newMessage(conversation, 'outbound', text, sender, now), type: kind.type, content: contentOf(kind) };
}

/** A message the platform sent into the conversation moves its activity and preview (a newer activity is kept). */
export async function recordOutboundActivity(message: Message, now: Date): Promise<void> {
  const at = now.toISOString();
  await touchForOutbound(
    message.tenant_id,
    message.conversation_id,
    at,
    null,
    lastMessageOf('outbound', message.text, at),
  );
}
