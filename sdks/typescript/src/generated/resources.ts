// Generated from openapi.json by scripts/generate-resources.mjs: do not edit (run `npm run generate`).
// The resource layer: one class per x-sdk-resource, one method per operation. The hand-written core
// (transport, credentials, pagination, errors) is in ../core; extensions are in ../resources.
import type { AuthKind, ConditionalRequestOptions, RequestOptions, Transport } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { BodyOf, ListParams, QueryOf, ResponseBody } from '../types.js';
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/** `client.conversations.messages`. */
export class Messages extends ApiResource {
  /**
   * List messages. All of the conversation’s messages, newest first, inbound and outbound, with their
   * delivery status.
   */
  list(conversationId: string, params?: ListParams<'listMessages'>, options?: RequestOptions): PagedList<Schemas['Message']> {
    return this.pagedList(path`/conversations/${conversationId}/messages`, params, options);
  }

  /**
   * Send a message. Exactly one of `text`, `template` (an approved template by name and language, with its
   * parameters), `image`, `document`, `audio`, `video` (an https `url`, a `caption`, a document’s `filename`;
   * checked like webhook URLs) or `interactive` (up to 3 reply `buttons`, or a `list` of up to 10 rows), each
   * within WhatsApp’s limits (422 naming the limit). On WhatsApp, after the 24-hour window
   * (`window_expires_at`) only templates may be sent: a message with `fallback_template` sends that template
   * instead, else 422 `outside_service_window`. `send_at` schedules it (`scheduled`, cancelable until it
   * goes); at its time the window is decided again, and a message that cannot go fails with
   * `conversation.message.failed`. Answered 202 with the message `queued`; its status then moves to `sent`,
   * `delivered` and `read` (or `failed`, with `error` saying why), each with an event.
   */
  send(conversationId: string, params: BodyOf<'sendMessage', 'send_at'>, options?: RequestOptions): Promise<Schemas['Message']> {
    return this.call('POST', path`/conversations/${conversationId}/messages`, { body: params, options });
  }

  /**
   * Cancel a scheduled message. A message given `send_at` is `canceled` if it has not gone yet; 409
   * `message_not_scheduled` after.
   */
  cancel(conversationId: string, messageId: string, options?: RequestOptions): Promise<Schemas['Message']> {
    return this.call('DELETE', path`/conversations/${conversationId}/messages/${messageId}`, { options });
  }
}

/** `client.conversations.notes`. */
export class Notes extends ApiResource {
  /** List notes. The team’s notes on the conversation, newest first. The customer never sees them. */
  list(conversationId: string, params?: ListParams<'listNotes'>, options?: RequestOptions): PagedList<Schemas['Note']> {
    return this.pagedList(path`/conversations/${conversationId}/notes`, params, options);
  }

  /**
   * Add a note. A note for the team: stored with its author and listed with the conversation’s notes, never
   * sent to the customer, and announced by no event (webhook receivers hear only what happens with the
   * customer).
   */
  create(conversationId: string, params: BodyOf<'createNote'>, options?: RequestOptions): Promise<Schemas['Note']> {
    return this.call('POST', path`/conversations/${conversationId}/notes`, { body: params, options });
  }

  /**
   * Edit a note. Replaces the note’s text, sets `edited_at` and moves `version` on; the same text again
   * answers the note unchanged. Only its author may (403 `not_note_author` otherwise, admins included: they
   * may delete a note, not reword it). With `If-Match`, an edit of a version since changed is 412.
   */
  update(conversationId: string, noteId: string, changes: BodyOf<'updateNote'>, options?: ConditionalRequestOptions): Promise<Schemas['Note']> {
    return this.call('PATCH', path`/conversations/${conversationId}/notes/${noteId}`, { body: changes, options });
  }

  /**
   * Delete a note. Its author deletes it; an admin may delete anyone’s (403 `not_note_author` otherwise).
   * With `If-Match`, a version since changed is 412.
   */
  async delete(conversationId: string, noteId: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/conversations/${conversationId}/notes/${noteId}`, { options });
  }
}

/** `client.auth`. */
export class Auth extends ApiResource {
  /** Who am I. The calling credential, its role and its tenant: handy to check that a key or token works. */
  me(options?: RequestOptions): Promise<Schemas['Me']> {
    return this.call('GET', '/auth/me', { options });
  }
}

/** `client.users`. */
export class Users extends ApiResource {
  /** List users. The tenant’s users, newest first, without password hashes. */
  list(params?: ListParams<'listUsers'>, options?: RequestOptions): PagedList<Schemas['User']> {
    return this.pagedList('/users', params, options);
  }

  /**
   * Create a user. Adds a user who can log in to this tenant. `role` defaults to `agent`. Needs the `admin`
   * role.
   */
  create(params: BodyOf<'createUser'>, options?: RequestOptions): Promise<Schemas['User']> {
    return this.call('POST', '/users', { body: params, options });
  }

  /** Get a user. A user of the caller’s tenant; another tenant’s user is 404. */
  get(id: string, options?: RequestOptions): Promise<Schemas['User']> {
    return this.call('GET', path`/users/${id}`, { options });
  }

  /**
   * Update a user. Changes the name, role, status or password. A new password or `status: disabled` ends the
   * user’s sessions; `status: disabled` also unassigns their unresolved conversations, moments later (each
   * with `conversation.updated`). The last active admin cannot be demoted or disabled, and nobody can demote
   * or disable themselves. Needs the `admin` role.
   */
  update(id: string, changes: BodyOf<'updateUser'>, options?: ConditionalRequestOptions): Promise<Schemas['User']> {
    return this.call('PATCH', path`/users/${id}`, { body: changes, options });
  }
}

/** `client.apiKeys`. */
export class ApiKeys extends ApiResource {
  /**
   * List API keys. Prefix, name, role and `last_used_at` of each key; never the key. Needs the `admin` role.
   */
  list(params?: ListParams<'listApiKeys'>, options?: RequestOptions): PagedList<Schemas['ApiKey']> {
    return this.pagedList('/api-keys', params, options);
  }

  /**
   * Create an API key. The key is in this response only (a retry with the same Idempotency-Key within 24 h
   * replays it). Only its SHA-256 is stored. A tenant holds at most 50 keys. Needs the `admin` role.
   */
  create(params: BodyOf<'createApiKey'>, options?: RequestOptions): Promise<Schemas['NewApiKey']> {
    return this.call('POST', '/api-keys', { body: params, options });
  }

  /**
   * Revoke an API key. Effective on the next request: authentication reads the key on every request, without
   * a cache. Needs the `admin` role.
   */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/api-keys/${id}`, { options });
  }
}

/** `client.customers`. */
export class Customers extends ApiResource {
  /**
   * List customers. Newest first. Customers are created by their first contact: an inbound message, a
   * conversation or a booking by phone. `phone` finds the one customer with that number (a page of one, or
   * none). `name` lists those whose name, or the rest of it from one of its next four words (split at spaces,
   * hyphens and apostrophes: `lopez` finds María López and Ana García-López), starts with it, A to Z by what
   * matched, each once, ignoring case and accents (not with `phone`: 400 `invalid_query`). A customer's
   * conversations and bookings are `GET /conversations?customer_id=` and `GET /bookings?customer_id=`.
   */
  list(params?: ListParams<'listCustomers'>, options?: RequestOptions): PagedList<Schemas['Customer']> {
    return this.pagedList('/customers', params, options);
  }

  /** Get a customer. The customer with their phone number and name. */
  get(id: string, options?: RequestOptions): Promise<Schemas['Customer']> {
    return this.call('GET', path`/customers/${id}`, { options });
  }

  /**
   * Update a customer. Changes the customer's name (null clears it). Their conversations and bookings show
   * the new name (their copies are rewritten before the answer, which moves their versions); events already
   * sent keep the name they had. The phone number and the WhatsApp user id identify the customer and cannot
   * be changed here.
   */
  update(id: string, changes: BodyOf<'updateCustomer'>, options?: ConditionalRequestOptions): Promise<Schemas['Customer']> {
    return this.call('PATCH', path`/customers/${id}`, { body: changes, options });
  }
}

/** `client.conversations`. */
export class Conversations extends ApiResource {
  readonly messages: Messages;
  readonly notes: Notes;

  constructor(transport: Transport) {
    super(transport);
    this.messages = new Messages(transport);
    this.notes = new Notes(transport);
  }

  /**
   * List conversations. Newest activity first. Filter by `status`, `tag`, `customer_id` or `assignee_id` (a
   * user's unresolved conversations), or by `status` with one of the others; other combinations, and
   * `assignee_id` with `status=resolved`, are 400 `unsupported_filter_combination` (every page is one
   * DynamoDB Query). `channel`, and `assignee_id=none` (the conversations nobody is assigned to), combine
   * with any of the other filters: they filter the list the others pick (a page that skips many may come back
   * shorter than `limit`, with a cursor to read on).
   */
  list(params?: ListParams<'listConversations'>, options?: RequestOptions): PagedList<Schemas['Conversation']> {
    return this.pagedList('/conversations', params, options);
  }

  /**
   * Open a conversation. With a customer (by id, or by phone: found or created), optionally with a first
   * outbound message (queued).
   */
  create(params: BodyOf<'createConversation'>, options?: RequestOptions): Promise<Schemas['NewConversation']> {
    return this.call('POST', '/conversations', { body: params, options });
  }

  /** Get a conversation. With its 20 newest messages, in one read. */
  get(id: string, options?: RequestOptions): Promise<Schemas['ConversationWithMessages']> {
    return this.call('GET', path`/conversations/${id}`, { options });
  }

  /**
   * Update a conversation. Status (open → pending, snoozed, resolved; pending → open, snoozed, resolved;
   * snoozed → open, pending, resolved; resolved → open), tags, assignee, priority, category. Snoozing needs a
   * future `snoozed_until`.
   */
  update(id: string, changes: BodyOf<'updateConversation', 'snoozed_until'>, options?: ConditionalRequestOptions): Promise<Schemas['Conversation']> {
    return this.call('PATCH', path`/conversations/${id}`, { body: changes, options });
  }
}

/** `client.savedReplies`. */
export class SavedReplies extends ApiResource {
  /**
   * List saved replies. The team’s saved replies (canned responses), A to Z by shortcut. `shortcut` lists
   * those whose shortcut starts with it, as a composer does while `/gr…` is typed.
   */
  list(params?: ListParams<'listSavedReplies'>, options?: RequestOptions): PagedList<Schemas['SavedReply']> {
    return this.pagedList('/saved-replies', params, options);
  }

  /**
   * Save a reply. Text the team sends often, under a shortcut unique in the tenant. Its text may use
   * placeholders, `{{customer.name}}`, `{{customer.first_name}}`, `{{customer.phone}}`, `{{agent.name}}`,
   * `{{agent.first_name}}`, each with an optional fallback (`{{customer.first_name | there}}`); an unknown
   * one is 422. Any user or API key may save, change and delete the team’s replies.
   */
  create(params: BodyOf<'createSavedReply'>, options?: RequestOptions): Promise<Schemas['SavedReply']> {
    return this.call('POST', '/saved-replies', { body: params, options });
  }

  /** Get a saved reply. The saved reply, its placeholders as written. */
  get(id: string, options?: RequestOptions): Promise<Schemas['SavedReply']> {
    return this.call('GET', path`/saved-replies/${id}`, { options });
  }

  /**
   * Change a saved reply. Changes its shortcut, title or text (the values sent; the same values again change
   * nothing). A shortcut another reply has is 409 `shortcut_taken`.
   */
  update(id: string, changes: BodyOf<'updateSavedReply'>, options?: ConditionalRequestOptions): Promise<Schemas['SavedReply']> {
    return this.call('PATCH', path`/saved-replies/${id}`, { body: changes, options });
  }

  /** Delete a saved reply. Its shortcut is free again at once. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/saved-replies/${id}`, { options });
  }

  /**
   * Fill in a saved reply. The reply’s text with its placeholders filled in for one conversation:
   * `customer.*` from its customer, `agent.*` from the user asking (an API key has no name). Nothing is sent:
   * send `text` as a message, changed or not (a text that long names make longer than 4,096 characters, or
   * that is empty, is 422 there).
   */
  render(id: string, params: BodyOf<'renderSavedReply'>, options?: RequestOptions): Promise<Schemas['RenderedSavedReply']> {
    return this.call('POST', path`/saved-replies/${id}/render`, { body: params, options });
  }
}

/** `client.templates`. */
export class Templates extends ApiResource {
  /**
   * List message templates. The tenant’s WhatsApp message templates (and sandbox ones), newest first, with
   * their review status.
   */
  list(params?: ListParams<'listTemplates'>, options?: RequestOptions): PagedList<Schemas['Template']> {
    return this.pagedList('/templates', params, options);
  }

  /**
   * Create a message template. Submits a template for review: to Meta, through the WhatsApp Business Account
   * of the number (`channel_account_id`, or the tenant’s only one), or to the sandbox, which approves it
   * after a few seconds (and rejects one whose name contains `reject`). Only templates may start a
   * conversation or be sent after the 24-hour window. Meta’s limits are checked first: body up to 1024
   * characters with numbered parameters and one example each, header text 60 (one parameter), footer 60, up
   * to 10 buttons (2 URL buttons), button text 25. The status follows Meta’s review
   * (`template.status_updated`). Sent again after a 503, a create that Meta had already accepted adopts
   * Meta’s template; a template of that name with other content at Meta is `template_exists`. Needs the
   * `admin` role.
   */
  create(params: BodyOf<'createTemplate'>, options?: RequestOptions): Promise<Schemas['Template']> {
    return this.call('POST', '/templates', { body: params, options });
  }

  /**
   * Sync templates from Meta. Reads the number’s WhatsApp Business Account templates from Meta: statuses and
   * reasons of known ones move (with their events, should a status webhook have been missed), and templates
   * made in WhatsApp Manager are added. Needs the `admin` role.
   */
  sync(params: BodyOf<'syncTemplates'>, options?: RequestOptions): Promise<Schemas['TemplateSyncResult']> {
    return this.call('POST', '/templates/sync', { body: params, options });
  }

  /** Get a message template. The template, its review status and any rejection reason. */
  get(id: string, options?: RequestOptions): Promise<Schemas['Template']> {
    return this.call('GET', path`/templates/${id}`, { options });
  }

  /**
   * Delete a message template. Deletes the template here and from the WhatsApp Business Account (Meta keeps
   * its name blocked for 30 days). Needs the `admin` role.
   */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/templates/${id}`, { options });
  }
}

/** `client.reminderPolicy`. */
export class ReminderPolicy extends ApiResource {
  /**
   * Get the booking reminder policy. When and with which template bookings are reminded (disabled until set).
   */
  get(options?: RequestOptions): Promise<Schemas['ReminderPolicy']> {
    return this.call('GET', '/reminder-policy', { options });
  }

  /**
   * Change the booking reminder policy. Changes the fields given. Each pending or confirmed booking gets one
   * reminder per offset before its start, in its conversation (or the customer’s), as the chosen template;
   * exactly once each. Reminders are scheduled when a booking is created or changed: moved when it is
   * rescheduled, dropped when it is cancelled. The customer’s taps act on the booking: Confirm confirms it,
   * Cancel cancels it (within the tenant’s rules), Reschedule offers the nearest free times as a list, and a
   * pick moves the booking. Needs the `admin` role.
   */
  update(changes: BodyOf<'updateReminderPolicy'>, options?: RequestOptions): Promise<Schemas['ReminderPolicy']> {
    return this.call('PATCH', '/reminder-policy', { body: changes, options });
  }
}

/** `client.channels`. */
export class Channels extends ApiResource {
  /** List channels. The sandbox, always there, and the connected WhatsApp numbers (never their secrets). */
  async list(options?: RequestOptions): Promise<Schemas['ChannelList']['data']> {
    const body = await this.call<Schemas['ChannelList']>('GET', '/channels', { options });
    return body.data;
  }

  /**
   * Connect a WhatsApp number. Connects a number with a long-lived business token. With the platform’s Meta
   * app (the usual case), Meta is asked whether the token is valid, long-lived and has the WhatsApp
   * permissions, and the app is subscribed to the account (`waba_id`); in every case the Graph API must
   * confirm that the token controls the number (422 otherwise). A number served by the tenant’s own Meta app
   * gives that app’s `app_secret` and a `verify_token` instead. Secrets are encrypted and never returned.
   * Needs the `admin` role.
   */
  connectWhatsApp(params: BodyOf<'connectWhatsApp'>, options?: RequestOptions): Promise<Schemas['ConnectedWhatsApp']> {
    return this.call('POST', '/channels/whatsapp', { body: params, options });
  }

  /**
   * How to run Embedded Signup. What a browser needs to run Meta’s Embedded Signup with the platform’s Meta
   * app: its id, its signup configuration and the Graph API version; `available: false` when the deployment
   * has none (then connect with a token).
   */
  whatsappSignupConfig(options?: RequestOptions): Promise<Schemas['WhatsAppSignupConfig']> {
    return this.call('GET', '/channels/whatsapp/embedded-signup', { options });
  }

  /**
   * Connect a WhatsApp number through Embedded Signup. Finishes Meta’s Embedded Signup, run in the dashboard
   * with the platform’s Meta app: the OAuth `code` is exchanged for a business integration token, which is
   * checked, and the app is subscribed to the account’s webhooks; then the number is connected as by `POST
   * /channels/whatsapp`. Needs the `admin` role.
   */
  connectWhatsAppByEmbeddedSignup(params: BodyOf<'connectWhatsAppByEmbeddedSignup'>, options?: RequestOptions): Promise<Schemas['ConnectedWhatsApp']> {
    return this.call('POST', '/channels/whatsapp/embedded-signup', { body: params, options });
  }

  /**
   * Inject a customer message (sandbox). A customer message on the sandbox channel, through the same code
   * path as a WhatsApp message: it joins the customer’s unresolved conversation or opens a new one. A small
   * file (`media`, base64, at most 150 KB, WhatsApp’s types) is stored at once, as a WhatsApp customer’s
   * would be after its copy. The sandbox provider accepts every outbound message, except text containing
   * `[fail]`. The sandbox plays WhatsApp’s 24-hour window: `sent_at` in the past (when the customer wrote)
   * leaves it closed once 24 hours have passed.
   */
  sandboxInbound(params: BodyOf<'injectSandboxMessage', 'sent_at'>, options?: RequestOptions): Promise<ResponseBody<'injectSandboxMessage'>> {
    return this.call('POST', '/channels/sandbox/inbound', { body: params, options });
  }
}

/** `client.media`. */
export class Media extends ApiResource {
  /**
   * Upload a file to send. Declares a file (its kind, MIME type and size, within WhatsApp’s limits: image 5
   * MB JPEG or PNG, video 16 MB MP4 or 3GPP, audio 16 MB AAC, AMR, MP3, MP4 or OGG, document 100 MB PDF, text
   * or Office, sticker 500 KB WebP) and returns a presigned URL to PUT its bytes to, for 15 minutes. Then
   * send it: `{"image": {"media_id": "med_…"}}` on a conversation’s messages. Files are kept for the media
   * retention (90 days).
   */
  createUpload(params: BodyOf<'createMediaUpload'>, options?: RequestOptions): Promise<Schemas['MediaUpload']> {
    return this.call('POST', '/media/uploads', { body: params, options });
  }
}

/** `client.payments`. */
export class Payments extends ApiResource {
  /**
   * List payments. Newest first; filter by `status`, `booking_id`, `customer_id` and the creation time
   * (`from`, `to`).
   */
  list(params?: ListParams<'listPayments', 'from' | 'to'>, options?: RequestOptions): PagedList<Schemas['Payment']> {
    return this.pagedList('/payments', params, options);
  }

  /**
   * Create a payment link. A link for a booking and/or a conversation, with the tenant’s provider (the
   * sandbox, or Stripe Checkout). `send: true` also sends it into the conversation as a message. Amounts are
   * whole minor units from 1 to 99999999. Emits `payment.created`.
   */
  create(params: BodyOf<'createPayment'>, options?: RequestOptions): Promise<Schemas['CreatedPayment']> {
    return this.call('POST', '/payments', { body: params, options });
  }

  /**
   * Get the payment settings. The provider, refund policy, hold and per-service requirements. Stripe’s
   * secrets are never returned.
   */
  getSettings(options?: RequestOptions): Promise<Schemas['PaymentSettings']> {
    return this.call('GET', '/payments/settings', { options });
  }

  /**
   * Change the payment settings (admin). Changes what is sent. `provider: stripe` needs Stripe connected
   * first. Needs the `admin` role.
   */
  updateSettings(changes: BodyOf<'updatePaymentSettings'>, options?: RequestOptions): Promise<Schemas['PaymentSettings']> {
    return this.call('PATCH', '/payments/settings', { body: changes, options });
  }

  /**
   * Connect Stripe (admin). A restricted key (write access to Checkout Sessions and Refunds) and the signing
   * secret of the endpoint added in Stripe at `webhook_path`. The key is checked with a call to Stripe; both
   * are sealed and never returned. The provider becomes `stripe`. Needs the `admin` role.
   */
  connectStripe(params: BodyOf<'connectStripe'>, options?: RequestOptions): Promise<Schemas['PaymentSettings']> {
    return this.call('POST', '/payments/stripe', { body: params, options });
  }

  /** Get a payment. The payment, its link and its refunds. */
  get(id: string, options?: RequestOptions): Promise<Schemas['Payment']> {
    return this.call('GET', path`/payments/${id}`, { options });
  }

  /**
   * Refund a payment (admin). Gives back `amount` minor units (default: all that is left), at most what was
   * paid less what was refunded. Safe to race: each refund is reserved on the payment before it is sent.
   * Emits `payment.refunded` once the provider takes it. Needs the `admin` role.
   */
  refund(id: string, params: BodyOf<'refundPayment'>, options?: RequestOptions): Promise<Schemas['Payment']> {
    return this.call('POST', path`/payments/${id}/refund`, { body: params, options });
  }

  /**
   * Withdraw an unpaid link. The link closes (`payment.canceled`); a booking waiting for it is cancelled
   * (`payment_canceled`). A customer who pays at that moment is refunded in full.
   */
  cancel(id: string, options?: RequestOptions): Promise<Schemas['Payment']> {
    return this.call('POST', path`/payments/${id}/cancel`, { options });
  }

  /**
   * Send the link into the conversation. Sends (or sends again) an open link into the payment’s conversation,
   * as a message.
   */
  send(id: string, options?: RequestOptions): Promise<Schemas['Message']> {
    return this.call('POST', path`/payments/${id}/send`, { options });
  }
}

/** `client.bookings`. */
export class Bookings extends ApiResource {
  /** List bookings. Latest start first; `from` and `to` bound the start time. */
  list(params?: ListParams<'listBookings', 'from' | 'to'>, options?: RequestOptions): PagedList<Schemas['Booking']> {
    return this.pagedList('/bookings', params, options);
  }

  /**
   * Create a booking. Created `confirmed` unless `status: "pending"`. Times take any offset and are stored in
   * UTC; a booking lasts at most 24 hours. Two active bookings of one `resource_id` never overlap (half-open
   * intervals): the second is 409 `booking_conflict`.
   */
  create(params: BodyOf<'createBooking', 'start_at' | 'end_at'>, options?: RequestOptions): Promise<Schemas['Booking']> {
    return this.call('POST', '/bookings', { body: params, options });
  }

  /**
   * A resource's free time. The busy and free time of one `resource_id` between `from` and `to` (at most 31
   * days; the schedule keeps the last 24 hours and the future, so an earlier `from` is answered from 24 hours
   * ago), and with `duration_minutes` the slots still bookable. Pending and confirmed bookings hold time;
   * cancelled, completed and no-show ones do not. A slot listed here can still be taken before it is booked:
   * the booking is then 409 `booking_conflict`.
   */
  availability(params: QueryOf<'getAvailability', 'from' | 'to'>, options?: RequestOptions): Promise<Schemas['Availability']> {
    return this.call('GET', '/bookings/availability', { query: { ...params }, options });
  }

  /** Get a booking. The booking, with its cancellation and reschedule history. */
  get(id: string, options?: RequestOptions): Promise<Schemas['Booking']> {
    return this.call('GET', path`/bookings/${id}`, { options });
  }

  /**
   * Update a booking. Details, a reschedule (new `start_at`/`end_at`, recorded in `rescheduled_from`) and
   * status changes: pending → confirmed or cancelled; confirmed → completed, cancelled or no_show (the first
   * and last once it has started); the last three are final.
   */
  update(id: string, changes: BodyOf<'updateBooking', 'start_at' | 'end_at'>, options?: ConditionalRequestOptions): Promise<Schemas['Booking']> {
    return this.call('PATCH', path`/bookings/${id}`, { body: changes, options });
  }

  /**
   * Cancel a booking. The record stays, `cancelled`, with `cancellation`. Cancelling twice is harmless; a
   * completed or no-show booking is 409.
   */
  cancel(id: string, params?: QueryOf<'cancelBooking'>, options?: ConditionalRequestOptions): Promise<Schemas['Booking']> {
    return this.call('DELETE', path`/bookings/${id}`, { query: { ...params }, options });
  }

  /**
   * Tell the customer about their booking. Sends the booking’s customer a message saying where it stands, in
   * the booking’s conversation (else the customer’s most recently active one), in `language` (default: the
   * tenant’s), with the time in the booking’s zone: confirmed ("Hi Maria, your Haircut is confirmed for
   * Tuesday 24 November at 15:00. See you then!"), moved (with the time it had), requested (pending) or
   * cancelled. Answered 202 with the message `queued`, as `POST /conversations/{id}/messages` is; it is sent
   * as any message is, with its events. A booking whose customer has no conversation, or one that is over
   * (completed, no-show), is 422.
   */
  notify(id: string, params?: QueryOf<'notifyBookingCustomer'>, options?: RequestOptions): Promise<Schemas['Message']> {
    return this.call('POST', path`/bookings/${id}/notify`, { query: { ...params }, options });
  }
}

/** `client.schedules`. */
export class Schedules extends ApiResource {
  /** List schedules. The opening hours of each resource that has them, A to Z by resource. */
  list(params?: ListParams<'listSchedules'>, options?: RequestOptions): PagedList<Schemas['Schedule']> {
    return this.pagedList('/schedules', params, options);
  }

  /**
   * Set a resource’s opening hours. Hours for each weekday and for particular dates, as wall-clock times in
   * `timezone` (so 09:00 stays 09:00 across daylight-saving changes). Once a resource has a schedule, an
   * active booking of it must lie wholly within its hours (422 `outside_opening_hours`), and availability
   * counts the rest as `closed`; bookings made before keep their time. With buffers, each booking made or
   * moved from then on also keeps the resource free for that long before and after it (409 `booking_conflict`
   * when another booking is in that time). A resource without a schedule is open at all times. Needs the
   * `admin` role.
   */
  create(params: BodyOf<'createSchedule'>, options?: RequestOptions): Promise<Schemas['Schedule']> {
    return this.call('POST', '/schedules', { body: params, options });
  }

  /**
   * Get a resource’s opening hours. The schedule of one resource; 404 when it has none (it is open at all
   * times).
   */
  get(resourceId: string, options?: RequestOptions): Promise<Schemas['Schedule']> {
    return this.call('GET', path`/schedules/${resourceId}`, { options });
  }

  /**
   * Change a resource’s opening hours. Changes what is sent: each weekday in `weekly_hours` (the days left
   * out keep their hours; `[]` closes one), `date_overrides` as the whole list, `timezone`, the buffers.
   * Bookings already made keep their time and their buffers. Needs the `admin` role.
   */
  update(resourceId: string, changes: BodyOf<'updateSchedule'>, options?: ConditionalRequestOptions): Promise<Schemas['Schedule']> {
    return this.call('PATCH', path`/schedules/${resourceId}`, { body: changes, options });
  }

  /** Remove a resource’s opening hours. The resource is open at all times again. Needs the `admin` role. */
  async delete(resourceId: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/schedules/${resourceId}`, { options });
  }
}

/** `client.ai`. */
export class Ai extends ApiResource {
  /**
   * Analyse a text or a message. Sentiment, intent (and the top three), entities (dates resolved in the
   * tenant’s time zone, emails, phones, money), language and a handoff verdict, for `{text}` or a stored
   * `{conversation_id, message_id}`.
   */
  analyze(params: BodyOf<'analyze'>, options?: RequestOptions): Promise<Schemas['Analysis']> {
    return this.call('POST', '/ai/analyze', { body: params, options });
  }

  /**
   * Suggest replies. Reply suggestions for a conversation (or a transcript), grounded in the customer’s name
   * and their next booking.
   */
  suggest(params: BodyOf<'suggestReplies'>, options?: RequestOptions): Promise<Schemas['Suggestions']> {
    return this.call('POST', '/ai/suggest', { body: params, options });
  }

  /**
   * Categorise a conversation. Category, candidates and suggested tags; `apply: true` sets the category and
   * adds the tags (emitting `conversation.updated`).
   */
  categorize(params: BodyOf<'categorizeConversation'>, options?: RequestOptions): Promise<Schemas['Categorization']> {
    return this.call('POST', '/ai/categorize', { body: params, options });
  }
}

/** `client.webhooks`. */
export class Webhooks extends ApiResource {
  /**
   * List webhook endpoints. The tenant’s endpoints (at most 50), newest first; never their secrets. Agents
   * get each URL’s origin only (`url_redacted`).
   */
  list(params?: ListParams<'listWebhooks'>, options?: RequestOptions): PagedList<Schemas['WebhookEndpoint']> {
    return this.pagedList('/webhooks', params, options);
  }

  /**
   * Register a webhook endpoint. Only `https` URLs without credentials, on port 443 or 1024–65535, whose host
   * resolves to public addresses only (422 `unsafe_url`). At most 50 endpoints per tenant. The endpoint gets
   * every matching event committed after this response. The signing secret is in this response only. Needs
   * the `admin` role.
   */
  create(params: BodyOf<'createWebhook'>, options?: RequestOptions): Promise<Schemas['NewWebhookEndpoint']> {
    return this.call('POST', '/webhooks', { body: params, options });
  }

  /**
   * Get a webhook endpoint. The endpoint’s URL (for agents, its origin only: `url_redacted`), subscriptions
   * and state; never its secrets.
   */
  get(id: string, options?: RequestOptions): Promise<Schemas['WebhookEndpoint']> {
    return this.call('GET', path`/webhooks/${id}`, { options });
  }

  /**
   * Update a webhook endpoint. `is_active: false` stops deliveries at once: nothing new is queued, and
   * pending retries end `cancelled`. Needs the `admin` role.
   */
  update(id: string, changes: BodyOf<'updateWebhook'>, options?: ConditionalRequestOptions): Promise<Schemas['WebhookEndpoint']> {
    return this.call('PATCH', path`/webhooks/${id}`, { body: changes, options });
  }

  /**
   * Delete a webhook endpoint. Pending retries stop; the delivery history stays readable. With If-Match, only
   * that version is deleted. Needs the `admin` role.
   */
  async delete(id: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/webhooks/${id}`, { options });
  }

  /**
   * Rotate the signing secret. A new secret signs from now on; the one it replaces keeps signing too for 24 h
   * (two signatures), and any older one stops at once. With If-Match, only that version is rotated (412
   * otherwise); without it, a rotation that meets a concurrent change is made again on the fresh endpoint,
   * unless that change was another rotation (409 `concurrent_update`: its secret stands). Needs the `admin`
   * role.
   */
  rotateSecret(id: string, options?: ConditionalRequestOptions): Promise<Schemas['RotatedWebhookEndpoint']> {
    return this.call('POST', path`/webhooks/${id}/rotate-secret`, { options });
  }

  /**
   * Send a test event. Delivers a `webhook.test` event to this endpoint now (an inactive endpoint receives
   * nothing). Needs the `admin` role.
   */
  test(id: string, options?: RequestOptions): Promise<Schemas['TestDelivery']> {
    return this.call('POST', path`/webhooks/${id}/test`, { options });
  }

  /**
   * Replay failed deliveries. Replays every failed delivery of this endpoint for events between `since` and
   * `until` (without `until`, every one failed by the time of the call), up to 1,000 per call. Needs the
   * `admin` role.
   */
  recover(id: string, params: BodyOf<'recoverWebhookDeliveries', 'since' | 'until'>, options?: RequestOptions): Promise<Schemas['RecoveryResult']> {
    return this.call('POST', path`/webhooks/${id}/recover`, { body: params, options });
  }

  /**
   * List an endpoint’s deliveries. This endpoint’s deliveries, newest first. `status` and `event_type` filter
   * them; `since` and `until` bound the event’s time. A page reads at most 1,000 deliveries to find its
   * matches, so a narrow `event_type` may give a short page with `has_more`.
   */
  deliveries(id: string, params?: ListParams<'listWebhookEndpointDeliveries', 'since' | 'until'>, options?: RequestOptions): PagedList<Schemas['Delivery']> {
    return this.pagedList(path`/webhooks/${id}/deliveries`, params, options);
  }
}

/** `client.webhookDeliveries`. */
export class WebhookDeliveries extends ApiResource {
  /**
   * List failed deliveries. The failed-delivery view across the tenant’s endpoints, newest event first;
   * `status` picks another status. `webhook_id` (a deleted endpoint’s too) and `event_type` narrow it;
   * `since` and `until` bound the event’s time. A page reads at most 1,000 deliveries to find its matches, so
   * a narrow `event_type` may give a short page with `has_more`.
   */
  list(params?: ListParams<'listWebhookDeliveries', 'since' | 'until'>, options?: RequestOptions): PagedList<Schemas['Delivery']> {
    return this.pagedList('/webhook-deliveries', params, options);
  }

  /**
   * Get a delivery. The payload and every attempt: time, status code, duration, error, and the first 1 KB of
   * the response.
   */
  get(id: string, options?: RequestOptions): Promise<Schemas['DeliveryWithPayload']> {
    return this.call('GET', path`/webhook-deliveries/${id}`, { options });
  }

  /**
   * Replay a delivery. Starts a new cycle with the full retry schedule. A delivery still pending is 409.
   * Needs the `admin` role.
   */
  retry(id: string, options?: RequestOptions): Promise<Schemas['DeliveryReplay']> {
    return this.call('POST', path`/webhook-deliveries/${id}/retry`, { options });
  }
}

/** `client.events`. */
export class Events extends ApiResource {
  /**
   * List events. The tenant’s events of the last 30 days, newest first: what a webhook may have missed.
   * `type` takes an exact type or `*`, `conversation.*`, `booking.*`, `payment.*` (reserved); `since` and
   * `until` bound the time; `after` (an event id) keeps only later events, read strongly consistent: how a
   * realtime client resumes after a drop. A `conversation.*` page, or one of a conversation type, evaluates
   * at most 1,000 events, so it may be short (even empty) with `has_more`: follow `next_cursor`. A message's
   * status events (sent, delivered, read, failed) are listed a moment after the status moved: a poller should
   * overlap its `since` window and dedupe on the event id.
   */
  list(params?: ListParams<'listEvents', 'since' | 'until'>, options?: RequestOptions): PagedList<Schemas['Event']> {
    return this.pagedList('/events', params, options);
  }

  /**
   * Get an event. One event of the last 30 days, exactly as webhooks deliver it. A receiver can fetch the
   * event a delivery names instead of trusting its body, and learn whether an id is one of the tenant’s
   * events.
   */
  get(id: string, options?: RequestOptions): Promise<Schemas['Event']> {
    return this.call('GET', path`/events/${id}`, { options });
  }
}

/** `client.realtime`. */
export class Realtime extends ApiResource {
  /**
   * Create a realtime ticket. A short-lived, single-use ticket to open a realtime WebSocket connection
   * (docs/realtime.md): the socket then receives every event of the tenant committed after it opened, as the
   * same envelopes as webhooks and `GET /events`, filtered by the caller’s role and by the optional
   * subscription (`types`, `conversation_id`). A ticket used twice, expired or presented for another tenant
   * is refused at the handshake (401). At most 200 connections per tenant and 10 per user or key.
   */
  createTicket(params: BodyOf<'createRealtimeTicket'>, options?: RequestOptions): Promise<Schemas['RealtimeTicket']> {
    return this.call('POST', '/realtime/tickets', { body: params, options });
  }
}

/** `client.settings`. */
export class Settings extends ApiResource {
  /** Get the tenant’s settings. The caller’s own tenant: its name, plan, time zone and default language. */
  get(options?: RequestOptions): Promise<Schemas['Tenant']> {
    return this.call('GET', '/settings', { options });
  }

  /**
   * Update the tenant’s settings. Admins change their own tenant’s name, time zone (in which the dashboard,
   * reminders and the AI say times) or default language. The plan, its limit and the status are the
   * operator’s. Needs the `admin` role.
   */
  update(changes: BodyOf<'updateSettings'>, options?: ConditionalRequestOptions): Promise<Schemas['Tenant']> {
    return this.call('PATCH', '/settings', { body: changes, options });
  }
}

/** `client.tenants`. */
export class Tenants extends ApiResource {
  protected override readonly auth: AuthKind = 'platform';

  /** List tenants. Every tenant, newest first. */
  list(params?: ListParams<'listTenants'>, options?: RequestOptions): PagedList<Schemas['Tenant']> {
    return this.pagedList('/platform/tenants', params, options);
  }

  /**
   * Create a tenant. Creates the tenant, its first admin and its first API key in one transaction. The key is
   * in this response only.
   */
  create(params: BodyOf<'createTenant'>, options?: RequestOptions): Promise<Schemas['ProvisionedTenant']> {
    return this.call('POST', '/platform/tenants', { body: params, options });
  }

  /** Get a tenant. The tenant, with its effective hourly limit. */
  get(id: string, options?: RequestOptions): Promise<Schemas['Tenant']> {
    return this.call('GET', path`/platform/tenants/${id}`, { options });
  }

  /**
   * Update a tenant. Changes the name, plan, limit (enterprise only, and required there), status, time zone
   * or default language. `status: suspended` makes every credential of the tenant fail with 403 from the next
   * request on.
   */
  update(id: string, changes: BodyOf<'updateTenant'>, options?: ConditionalRequestOptions): Promise<Schemas['Tenant']> {
    return this.call('PATCH', path`/platform/tenants/${id}`, { body: changes, options });
  }
}

/** `client.meta`. */
export class Meta extends ApiResource {
  protected override readonly auth: AuthKind = 'none';

  /** This document. The OpenAPI 3.1 document of this API: no credentials needed, not rate-limited. */
  openapi(options?: RequestOptions): Promise<Schemas['OpenApiDocument']> {
    return this.call('GET', '/openapi.json', { options });
  }
}
