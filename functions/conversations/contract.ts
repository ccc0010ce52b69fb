// Public: the API schemas of conversations and messages, reused by other contracts.
import * as z from 'zod/mini';
import { MESSAGE_TYPES } from './message-kinds';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { CustomerRef } from '../customers/contract';
import { MessageMedia } from '../media/contract';
import { CHANNELS, CONVERSATION_STATUSES, MESSAGE_STATUSES, PREVIEW_CHARS, PRIORITIES } from './conversation';

const score = z.number().check(z.minimum(0), z.maximum(1));

export const Conversation = named(
  'Conversation',
  z.object({
    id: resourceId('conv'),
    tenant_id: tenantId,
    customer: CustomerRef,
    channel: z.enum(CHANNELS),
    channel_account_id: z
      .nullable(z.string())
      .check(z.meta({ description: 'The WhatsApp phone_number_id; null for the sandbox.' })),
    status: z.enum(CONVERSATION_STATUSES),
    snoozed_until: z.nullable(timestamp),
    tags: z.array(z.string()),
    assignee_id: z.nullable(resourceId('usr')),
    priority: z.enum(PRIORITIES),
    category: z.nullable(z.string()),
    handoff: z.nullable(
      z
        .object({
          at: timestamp,
          reason: z.enum(['request_human', 'complaint', 'negative_sentiment']),
          message_id: resourceId('msg'),
        })
        .check(
          z.meta({ description: 'Set when the AI hands the conversation to a human; cleared when it is resolved.' }),
        ),
    ),
    last_message_at: z.nullable(timestamp),
    last_inbound_at: z
      .nullable(timestamp)
      .check(z.meta({ description: 'The last customer message: WhatsApp\u2019s 24-hour window runs from here.' })),
    window_expires_at: z.nullable(timestamp).check(
      z.meta({
        description:
          'WhatsApp: when the 24-hour customer-service window closes (24 h after the customer\u2019s last message); after it only templates may be sent (or give `fallback_template`). Null on the sandbox and before the customer first writes.',
      }),
    ),
    last_activity_at: timestamp,
    last_message: z.nullable(
      z
        .object({
          direction: z.enum(['inbound', 'outbound']),
          text: z.string().check(z.maxLength(PREVIEW_CHARS)),
          at: timestamp,
        })
        .check(
          z.meta({
            description: `The newest message in short (its text on one line, at most ${PREVIEW_CHARS} characters), for an inbox list; null before the first message.`,
          }),
        ),
    ),
    unanswered_count: z
      .int()
      .check(
        z.minimum(0),
        z.meta({ description: 'Customer messages since the team last replied; 0 once someone answers.' }),
      ),
    created_at: timestamp,
    updated_at: timestamp,
    version,
  }),
);

export const MessageAnalysis = named(
  'MessageAnalysis',
  z.object({
    sentiment: z.object({ label: z.string(), score: z.number().check(z.minimum(-1), z.maximum(1)), confidence: score }),
    intent: z.object({ name: z.string(), confidence: score }),
    language: z.string(),
    provider: z.string(),
    analyzed_at: timestamp,
  }),
);

export const Message = named(
  'Message',
  z.object({
    id: resourceId('msg'),
    tenant_id: tenantId,
    conversation_id: resourceId('conv'),
    direction: z.enum(['inbound', 'outbound']),
    type: z.enum(MESSAGE_TYPES).check(
      z.meta({
        description: 'Inbound messages are `text` (media and replies described in `text`); outbound ones any kind.',
      }),
    ),
    text: z.string().check(
      z.meta({
        description:
          'What the message says as text: a template\u2019s name, a media\u2019s caption, a list\u2019s rendering.',
      }),
    ),
    content: z.nullable(z.record(z.string(), z.unknown())).check(
      z.meta({
        description:
          'The kind\u2019s own part, as sent: `{template: {name, language, parameters}}`, `{image|document|audio|video: {url, caption, filename}}` or `{interactive: {...}}`; null for text.',
      }),
    ),
    scheduled_at: z.nullable(timestamp).check(z.meta({ description: 'When a message given `send_at` goes.' })),
    status: z.enum(MESSAGE_STATUSES),
    sender: z.object({ type: z.enum(['customer', 'user', 'api_key', 'system']), id: z.string() }),
    channel: z.enum(CHANNELS),
    provider_message_id: z.nullable(z.string()),
    error: z.nullable(z.object({ code: z.string(), message: z.string() })),
    created_at: timestamp,
    sent_at: z.nullable(timestamp),
    delivered_at: z.nullable(timestamp),
    read_at: z.nullable(timestamp),
    failed_at: z.nullable(timestamp),
    updated_at: timestamp,
    analysis: z
      .nullable(MessageAnalysis)
      .check(z.meta({ description: 'Inbound messages, once the background analysis has run.' })),
    reaction: z
      .nullable(z.object({ emoji: z.string(), reacted_at: timestamp }))
      .check(z.meta({ description: 'The customer\u2019s latest reaction to this message (WhatsApp); null if none.' })),
    media: z.nullable(MessageMedia).check(
      z.meta({
        description:
          'The file the message carries: a customer\u2019s image, document, audio, video or sticker (copied from WhatsApp: `pending`, then `stored` or `failed`), or an uploaded file sent (`media_id`). Null when none.',
      }),
    ),
  }),
);

export const Note = named(
  'Note',
  z.object({
    id: resourceId('note'),
    tenant_id: tenantId,
    conversation_id: resourceId('conv'),
    text: z.string(),
    author: z
      .object({ type: z.enum(['user', 'api_key']), id: z.string() })
      .check(z.meta({ description: 'Who wrote it: a user (dashboard) or an API key.' })),
    created_at: timestamp,
    edited_at: z.nullable(timestamp).check(z.meta({ description: 'When its author last changed the text.' })),
    version,
  }),
);

export const NewConversation = named(
  'NewConversation',
  z.extend(Conversation, { messages: z.array(Message).check(z.maxLength(1)) }),
);
export const ConversationWithMessages = named(
  'ConversationWithMessages',
  z.extend(Conversation, {
    messages: z.array(Message).check(z.maxLength(20), z.meta({ description: 'The 20 newest, newest first.' })),
    messages_has_more: z.boolean(),
  }),
);

const params = { id: resourceId('conv') };

export const contract = defineContract({
  'conversations-list': {
    operationId: 'listConversations',
    summary: 'List conversations',
    description:
      "Newest activity first. Filter by `status`, `tag`, `customer_id` or `assignee_id` (a user's unresolved " +
      'conversations), or by `status` with one of the others; other combinations, and `assignee_id` with `status=resolved`, ' +
      'are 400 `unsupported_filter_combination` (every page is one DynamoDB Query). `channel`, and `assignee_id=none` ' +
      '(the conversations nobody is assigned to), combine with any of the other filters: they filter the list the ' +
      'others pick (a page that skips many may come back shorter than `limit`, with a cursor to read on).',
    responses: { 200: { description: 'A page of conversations.', body: page('ConversationList', Conversation) } },
    errors: { 400: ['unsupported_filter_combination'] },
  },
  'conversations-create': {
    operationId: 'createConversation',
    summary: 'Open a conversation',
    description:
      'With a customer (by id, or by phone: found or created), optionally with a first outbound message (queued).',
    responses: {
      201: {
        description: 'The conversation, with its first message if one was sent.',
        body: NewConversation,
        headers: ['ETag', 'Location'],
      },
    },
    errors: {
      409: ['conversation_exists', 'concurrent_update'],
      422: ['unknown_assignee', 'channel_not_connected', 'invalid_phone', 'unknown_customer', 'outside_service_window'],
    },
    requestExample: {
      channel: 'sandbox',
      customer: { phone: '+4915112345678', name: 'Maria' },
      tags: ['vip'],
      message: { text: 'Hello Maria!' },
    },
  },
  'conversations-get': {
    operationId: 'getConversation',
    summary: 'Get a conversation',
    description: 'With its 20 newest messages, in one read.',
    params,
    responses: {
      200: {
        description: 'The conversation and its newest messages.',
        body: ConversationWithMessages,
        headers: ['ETag'],
      },
    },
    errors: { 404: ['not_found'] },
  },
  'conversations-update': {
    operationId: 'updateConversation',
    summary: 'Update a conversation',
    description:
      'Status (open → pending, snoozed, resolved; pending → open, snoozed, resolved; snoozed → open, pending, resolved; resolved → open), ' +
      'tags, assignee, priority, category. Snoozing needs a future `snoozed_until`.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The updated conversation.', body: Conversation, headers: ['ETag'] } },
    errors: {
      404: ['not_found'],
      409: ['conversation_exists', 'concurrent_update'],
      422: [
        'unknown_assignee',
        'invalid_status_transition',
        'field_requires_status',
        'snoozed_until_required',
        'snoozed_until_in_past',
      ],
    },
    requestExample: { status: 'snoozed', snoozed_until: '2026-12-01T09:00:00Z', tags: ['vip', 'follow-up'] },
  },
  'messages-list': {
    operationId: 'listMessages',
    summary: 'List messages',
    description:
      'All of the conversation\u2019s messages, newest first, inbound and outbound, with their delivery status.',
    params,
    responses: {
      200: {
        description: 'A page of the conversation\u2019s messages, newest first.',
        body: page('MessageList', Message),
      },
    },
    errors: { 404: ['not_found'] },
  },
  'messages-send': {
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      'Exactly one of `text`, `template` (an approved template by name and language, with its parameters), `image`, `document`, ' +
      '`audio`, `video` (an https `url`, a `caption`, a document\u2019s `filename`; checked like webhook URLs) or `interactive` ' +
      '(up to 3 reply `buttons`, or a `list` of up to 10 rows), each within WhatsApp\u2019s limits (422 naming the limit). ' +
      'On WhatsApp, after the 24-hour window (`window_expires_at`) only templates may be sent: a message with `fallback_template` ' +
      'sends that template instead, else 422 `outside_service_window`. `send_at` schedules it (`scheduled`, cancelable until it ' +
      'goes); at its time the window is decided again, and a message that cannot go fails with `conversation.message.failed`. ' +
      'Answered 202 with the message `queued`; its status then moves to `sent`, `delivered` and `read` (or `failed`, ' +
      'with `error` saying why), each with an event.',
    params,
    responses: { 202: { description: 'The queued or scheduled message.', body: Message, headers: ['Location'] } },
    errors: {
      404: ['not_found'],
      409: ['concurrent_update'],
      422: [
        'outside_service_window',
        'template_not_found',
        'template_not_approved',
        'invalid_template_parameters',
        'unsafe_media_url',
        'media_not_found',
        'media_not_uploaded',
        'unsupported_media',
      ],
    },
    requestExample: {
      text: 'Your appointment is tomorrow at 10:00. See you then!',
      fallback_template: {
        name: 'appointment_reminder',
        language: 'en',
        parameters: { body: ['Maria', 'tomorrow at 10:00'] },
      },
    },
  },
  'messages-cancel': {
    operationId: 'cancelMessage',
    summary: 'Cancel a scheduled message',
    description: 'A message given `send_at` is `canceled` if it has not gone yet; 409 `message_not_scheduled` after.',
    params: { id: resourceId('conv'), message_id: resourceId('msg') },
    responses: { 200: { description: 'The cancelled message.', body: Message } },
    errors: { 404: ['not_found'], 409: ['message_not_scheduled'] },
  },
  'notes-list': {
    operationId: 'listNotes',
    summary: 'List notes',
    description: 'The team\u2019s notes on the conversation, newest first. The customer never sees them.',
    params,
    responses: {
      200: { description: 'A page of the conversation\u2019s notes, newest first.', body: page('NoteList', Note) },
    },
    errors: { 404: ['not_found'] },
  },
  'notes-create': {
    operationId: 'createNote',
    summary: 'Add a note',
    description:
      'A note for the team: stored with its author and listed with the conversation\u2019s notes, never sent to ' +
      'the customer, and announced by no event (webhook receivers hear only what happens with the customer).',
    params,
    responses: { 201: { description: 'The note.', body: Note, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
    requestExample: { text: 'Called her back: she prefers mornings.' },
  },
  'notes-update': {
    operationId: 'updateNote',
    summary: 'Edit a note',
    description:
      'Replaces the note’s text, sets `edited_at` and moves `version` on; the same text again answers the note ' +
      'unchanged. Only its author may (403 `not_note_author` otherwise, admins included: they may delete a note, ' +
      'not reword it). With `If-Match`, an edit of a version since changed is 412.',
    params: { id: resourceId('conv'), note_id: resourceId('note') },
    ifMatch: true,
    responses: { 200: { description: 'The note as edited.', body: Note, headers: ['ETag'] } },
    errors: { 403: ['not_note_author'], 404: ['not_found'] },
    requestExample: { text: 'Called her back: she prefers mornings, not Mondays.' },
  },
  'notes-delete': {
    operationId: 'deleteNote',
    summary: 'Delete a note',
    description:
      'Its author deletes it; an admin may delete anyone\u2019s (403 `not_note_author` otherwise). With `If-Match`, ' +
      'a version since changed is 412.',
    params: { id: resourceId('conv'), note_id: resourceId('note') },
    ifMatch: true,
    responses: { 204: { description: 'Deleted.' } },
    errors: { 403: ['not_note_author'], 404: ['not_found'] },
  },
});
