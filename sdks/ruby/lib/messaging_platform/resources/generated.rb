# GENERATED from openapi.json by scripts/generate_resources.rb. Do not edit: run `ruby scripts/generate_resources.rb`
# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # `client.conversations.messages`.
    class Messages < Base
      # List messages. All of the conversation’s messages, newest first, inbound and outbound, with their delivery
      # status.
      def list(conversation_id, limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listMessages", { id: conversation_id }, given(limit: limit, cursor: cursor), request_options)
      end

      # Send a message. Exactly one of `text`, `template` (an approved template by name and language, with its
      # parameters), `image`, `document`, `audio`, `video` (an https `url`, a `caption`, a document’s `filename`;
      # checked like webhook URLs) or `interactive` (up to 3 reply `buttons`, or a `list` of up to 10 rows), each within
      # WhatsApp’s limits (422 naming the limit). On WhatsApp, after the 24-hour window (`window_expires_at`) only
      # templates may be sent: a message with `fallback_template` sends that template instead, else 422
      # `outside_service_window`. `send_at` schedules it (`scheduled`, cancelable until it goes); at its time the window
      # is decided again, and a message that cannot go fails with `conversation.message.failed`. Answered 202 with the
      # message `queued`; its status then moves to `sent`, `delivered` and `read` (or `failed`, with `error` saying
      # why), each with an event.
      def create(conversation_id,
                 text: UNSET,
                 template: UNSET,
                 image: UNSET,
                 document: UNSET,
                 audio: UNSET,
                 video: UNSET,
                 interactive: UNSET,
                 fallback_template: UNSET,
                 send_at: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("sendMessage",
             { id: conversation_id },
             body: body_of("sendMessage", given(text: text, template: template, image: image, document: document, audio: audio, video: video, interactive: interactive, fallback_template: fallback_template, send_at: send_at)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
      alias send_message create

      # Cancel a scheduled message. A message given `send_at` is `canceled` if it has not gone yet; 409
      # `message_not_scheduled` after.
      def cancel(conversation_id, message_id, request_options: nil)
        call("cancelMessage",
             { id: conversation_id, message_id: message_id },
             request_options: options(request_options))
      end
    end

    # `client.conversations.notes`.
    class Notes < Base
      # List notes. The team’s notes on the conversation, newest first. The customer never sees them.
      def list(conversation_id, limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listNotes", { id: conversation_id }, given(limit: limit, cursor: cursor), request_options)
      end

      # Add a note. A note for the team: stored with its author and listed with the conversation’s notes, never sent to
      # the customer, and announced by no event (webhook receivers hear only what happens with the customer).
      def create(conversation_id, text:, idempotency_key: nil, request_options: nil)
        call("createNote",
             { id: conversation_id },
             body: body_of("createNote", given(text: text)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Edit a note. Replaces the note’s text, sets `edited_at` and moves `version` on; the same text again answers the
      # note unchanged. Only its author may (403 `not_note_author` otherwise, admins included: they may delete a note,
      # not reword it). With `If-Match`, an edit of a version since changed is 412.
      def update(conversation_id, note_id, text:, if_match: nil, request_options: nil)
        call("updateNote",
             { id: conversation_id, note_id: note_id },
             body: body_of("updateNote", given(text: text)),
             request_options: options(request_options, if_match: if_match))
      end

      # Delete a note. Its author deletes it; an admin may delete anyone’s (403 `not_note_author` otherwise). With
      # `If-Match`, a version since changed is 412.
      def delete(conversation_id, note_id, if_match: nil, request_options: nil)
        call("deleteNote",
             { id: conversation_id, note_id: note_id },
             request_options: options(request_options, if_match: if_match))
        nil
      end
    end

    # `client.auth`.
    class Auth < Base
      # Who am I. The calling credential, its role and its tenant: handy to check that a key or token works.
      def me(request_options: nil)
        call("getMe", {}, request_options: options(request_options))
      end
    end

    # `client.users`.
    class Users < Base
      # List users. The tenant’s users, newest first, without password hashes.
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listUsers", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Create a user. Adds a user who can log in to this tenant. `role` defaults to `agent`. Needs the `admin` role.
      def create(email:, password:, name: UNSET, role: UNSET, idempotency_key: nil, request_options: nil)
        call("createUser",
             {},
             body: body_of("createUser", given(email: email, password: password, name: name, role: role)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a user. A user of the caller’s tenant; another tenant’s user is 404.
      def get(id, request_options: nil)
        call("getUser", { id: id }, request_options: options(request_options))
      end

      # Update a user. Changes the name, role, status or password. A new password or `status: disabled` ends the user’s
      # sessions; `status: disabled` also unassigns their unresolved conversations, moments later (each with
      # `conversation.updated`). The last active admin cannot be demoted or disabled, and nobody can demote or disable
      # themselves. Needs the `admin` role.
      def update(id, name: UNSET, role: UNSET, status: UNSET, password: UNSET, if_match: nil, request_options: nil)
        call("updateUser",
             { id: id },
             body: body_of("updateUser", given(name: name, role: role, status: status, password: password)),
             request_options: options(request_options, if_match: if_match))
      end
    end

    # `client.api_keys`.
    class ApiKeys < Base
      # List API keys. Prefix, name, role and `last_used_at` of each key; never the key. Needs the `admin` role.
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listApiKeys", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Create an API key. The key is in this response only (a retry with the same Idempotency-Key within 24 h replays
      # it). Only its SHA-256 is stored. A tenant holds at most 50 keys. Needs the `admin` role.
      def create(name:, role: UNSET, idempotency_key: nil, request_options: nil)
        call("createApiKey",
             {},
             body: body_of("createApiKey", given(name: name, role: role)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Revoke an API key. Effective on the next request: authentication reads the key on every request, without a
      # cache. Needs the `admin` role.
      def revoke(id, request_options: nil)
        call("revokeApiKey", { id: id }, request_options: options(request_options))
        nil
      end
    end

    # `client.customers`.
    class Customers < Base
      # List customers. Newest first. Customers are created by their first contact: an inbound message, a conversation
      # or a booking by phone. `phone` finds the one customer with that number (a page of one, or none). `name` lists
      # those whose name, or the rest of it from one of its next four words (split at spaces, hyphens and apostrophes:
      # `lopez` finds María López and Ana García-López), starts with it, A to Z by what matched, each once, ignoring
      # case and accents (not with `phone`: 400 `invalid_query`). A customer's conversations and bookings are `GET
      # /conversations?customer_id=` and `GET /bookings?customer_id=`.
      def list(phone: UNSET, name: UNSET, limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listCustomers", {}, given(phone: phone, name: name, limit: limit, cursor: cursor), request_options)
      end

      # Get a customer. The customer with their phone number and name.
      def get(id, request_options: nil)
        call("getCustomer", { id: id }, request_options: options(request_options))
      end

      # Update a customer. Changes the customer's name (null clears it). Their conversations and bookings show the new
      # name (their copies are rewritten before the answer, which moves their versions); events already sent keep the
      # name they had. The phone number and the WhatsApp user id identify the customer and cannot be changed here.
      def update(id, name: UNSET, if_match: nil, request_options: nil)
        call("updateCustomer",
             { id: id },
             body: body_of("updateCustomer", given(name: name)),
             request_options: options(request_options, if_match: if_match))
      end
    end

    # `client.conversations`.
    class Conversations < Base
      attr_reader :messages, :notes

      def initialize(transport)
        super
        @messages = Messages.new(transport)
        @notes = Notes.new(transport)
      end

      # List conversations. Newest activity first. Filter by `status`, `tag`, `customer_id` or `assignee_id` (a user's
      # unresolved conversations), or by `status` with one of the others; other combinations, and `assignee_id` with
      # `status=resolved`, are 400 `unsupported_filter_combination` (every page is one DynamoDB Query). `channel`, and
      # `assignee_id=none` (the conversations nobody is assigned to), combine with any of the other filters: they filter
      # the list the others pick (a page that skips many may come back shorter than `limit`, with a cursor to read on).
      def list(status: UNSET,
               tag: UNSET,
               channel: UNSET,
               customer_id: UNSET,
               assignee_id: UNSET,
               limit: UNSET,
               cursor: UNSET,
               request_options: nil)
        paged("listConversations",
              {},
              given(status: status, tag: tag, channel: channel, customer_id: customer_id, assignee_id: assignee_id, limit: limit, cursor: cursor),
              request_options)
      end

      # Open a conversation. With a customer (by id, or by phone: found or created), optionally with a first outbound
      # message (queued).
      def create(channel:,
                 customer:,
                 channel_account_id: UNSET,
                 tags: UNSET,
                 priority: UNSET,
                 assignee_id: UNSET,
                 message: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createConversation",
             {},
             body: body_of("createConversation", given(channel: channel, customer: customer, channel_account_id: channel_account_id, tags: tags, priority: priority, assignee_id: assignee_id, message: message)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a conversation. With its 20 newest messages, in one read.
      def get(id, request_options: nil)
        call("getConversation", { id: id }, request_options: options(request_options))
      end

      # Update a conversation. Status (open → pending, snoozed, resolved; pending → open, snoozed, resolved; snoozed →
      # open, pending, resolved; resolved → open), tags, assignee, priority, category. Snoozing needs a future
      # `snoozed_until`.
      def update(id,
                 status: UNSET,
                 snoozed_until: UNSET,
                 tags: UNSET,
                 assignee_id: UNSET,
                 priority: UNSET,
                 category: UNSET,
                 if_match: nil,
                 request_options: nil)
        call("updateConversation",
             { id: id },
             body: body_of("updateConversation", given(status: status, snoozed_until: snoozed_until, tags: tags, assignee_id: assignee_id, priority: priority, category: category)),
             request_options: options(request_options, if_match: if_match))
      end
    end

    # `client.saved_replies`.
    class SavedReplies < Base
      # List saved replies. The team’s saved replies (canned responses), A to Z by shortcut. `shortcut` lists those
      # whose shortcut starts with it, as a composer does while `/gr…` is typed.
      def list(shortcut: UNSET, limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listSavedReplies", {}, given(shortcut: shortcut, limit: limit, cursor: cursor), request_options)
      end

      # Save a reply. Text the team sends often, under a shortcut unique in the tenant. Its text may use placeholders,
      # `{{customer.name}}`, `{{customer.first_name}}`, `{{customer.phone}}`, `{{agent.name}}`, `{{agent.first_name}}`,
      # each with an optional fallback (`{{customer.first_name | there}}`); an unknown one is 422. Any user or API key
      # may save, change and delete the team’s replies.
      def create(shortcut:, title:, text:, idempotency_key: nil, request_options: nil)
        call("createSavedReply",
             {},
             body: body_of("createSavedReply", given(shortcut: shortcut, title: title, text: text)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a saved reply. The saved reply, its placeholders as written.
      def get(id, request_options: nil)
        call("getSavedReply", { id: id }, request_options: options(request_options))
      end

      # Change a saved reply. Changes its shortcut, title or text (the values sent; the same values again change
      # nothing). A shortcut another reply has is 409 `shortcut_taken`.
      def update(id, shortcut: UNSET, title: UNSET, text: UNSET, if_match: nil, request_options: nil)
        call("updateSavedReply",
             { id: id },
             body: body_of("updateSavedReply", given(shortcut: shortcut, title: title, text: text)),
             request_options: options(request_options, if_match: if_match))
      end

      # Delete a saved reply. Its shortcut is free again at once.
      def delete(id, request_options: nil)
        call("deleteSavedReply", { id: id }, request_options: options(request_options))
        nil
      end

      # Fill in a saved reply. The reply’s text with its placeholders filled in for one conversation: `customer.*` from
      # its customer, `agent.*` from the user asking (an API key has no name). Nothing is sent: send `text` as a
      # message, changed or not (a text that long names make longer than 4,096 characters, or that is empty, is 422
      # there).
      def render(id, conversation_id:, idempotency_key: nil, request_options: nil)
        call("renderSavedReply",
             { id: id },
             body: body_of("renderSavedReply", given(conversation_id: conversation_id)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.templates`.
    class Templates < Base
      # List message templates. The tenant’s WhatsApp message templates (and sandbox ones), newest first, with their
      # review status.
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listTemplates", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Create a message template. Submits a template for review: to Meta, through the WhatsApp Business Account of the
      # number (`channel_account_id`, or the tenant’s only one), or to the sandbox, which approves it after a few
      # seconds (and rejects one whose name contains `reject`). Only templates may start a conversation or be sent after
      # the 24-hour window. Meta’s limits are checked first: body up to 1024 characters with numbered parameters and one
      # example each, header text 60 (one parameter), footer 60, up to 10 buttons (2 URL buttons), button text 25. The
      # status follows Meta’s review (`template.status_updated`). Sent again after a 503, a create that Meta had already
      # accepted adopts Meta’s template; a template of that name with other content at Meta is `template_exists`. Needs
      # the `admin` role.
      def create(channel:,
                 name:,
                 language:,
                 category:,
                 body:,
                 channel_account_id: UNSET,
                 header: UNSET,
                 footer: UNSET,
                 buttons: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createTemplate",
             {},
             body: body_of("createTemplate", given(channel: channel, name: name, language: language, category: category, body: body, channel_account_id: channel_account_id, header: header, footer: footer, buttons: buttons)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Sync templates from Meta. Reads the number’s WhatsApp Business Account templates from Meta: statuses and reasons
      # of known ones move (with their events, should a status webhook have been missed), and templates made in WhatsApp
      # Manager are added. Needs the `admin` role.
      def sync(channel_account_id: UNSET, idempotency_key: nil, request_options: nil)
        call("syncTemplates",
             {},
             body: body_of("syncTemplates", given(channel_account_id: channel_account_id)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a message template. The template, its review status and any rejection reason.
      def get(id, request_options: nil)
        call("getTemplate", { id: id }, request_options: options(request_options))
      end

      # Delete a message template. Deletes the template here and from the WhatsApp Business Account (Meta keeps its name
      # blocked for 30 days). Needs the `admin` role.
      def delete(id, request_options: nil)
        call("deleteTemplate", { id: id }, request_options: options(request_options))
        nil
      end
    end

    # `client.reminder_policy`.
    class ReminderPolicy < Base
      # Get the booking reminder policy. When and with which template bookings are reminded (disabled until set).
      def get(request_options: nil)
        call("getReminderPolicy", {}, request_options: options(request_options))
      end

      # Change the booking reminder policy. Changes the fields given. Each pending or confirmed booking gets one
      # reminder per offset before its start, in its conversation (or the customer’s), as the chosen template; exactly
      # once each. Reminders are scheduled when a booking is created or changed: moved when it is rescheduled, dropped
      # when it is cancelled. The customer’s taps act on the booking: Confirm confirms it, Cancel cancels it (within the
      # tenant’s rules), Reschedule offers the nearest free times as a list, and a pick moves the booking. Needs the
      # `admin` role.
      def update(enabled: UNSET,
                 offsets_minutes: UNSET,
                 templates: UNSET,
                 default_language: UNSET,
                 request_options: nil)
        call("updateReminderPolicy",
             {},
             body: body_of("updateReminderPolicy", given(enabled: enabled, offsets_minutes: offsets_minutes, templates: templates, default_language: default_language)),
             request_options: options(request_options))
      end
    end

    # `client.channels`.
    class Channels < Base
      # List channels. The sandbox, always there, and the connected WhatsApp numbers (never their secrets).
      def list(request_options: nil)
        call("listChannels", {}, request_options: options(request_options)).data
      end

      # Connect a WhatsApp number. Connects a number with a long-lived business token. With the platform’s Meta app (the
      # usual case), Meta is asked whether the token is valid, long-lived and has the WhatsApp permissions, and the app
      # is subscribed to the account (`waba_id`); in every case the Graph API must confirm that the token controls the
      # number (422 otherwise). A number served by the tenant’s own Meta app gives that app’s `app_secret` and a
      # `verify_token` instead. Secrets are encrypted and never returned. Needs the `admin` role.
      def connect_whatsapp(phone_number_id:,
                           access_token:,
                           display_phone_number: UNSET,
                           waba_id: UNSET,
                           app_secret: UNSET,
                           verify_token: UNSET,
                           idempotency_key: nil,
                           request_options: nil)
        call("connectWhatsApp",
             {},
             body: body_of("connectWhatsApp", given(phone_number_id: phone_number_id, access_token: access_token, display_phone_number: display_phone_number, waba_id: waba_id, app_secret: app_secret, verify_token: verify_token)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # How to run Embedded Signup. What a browser needs to run Meta’s Embedded Signup with the platform’s Meta app: its
      # id, its signup configuration and the Graph API version; `available: false` when the deployment has none (then
      # connect with a token).
      def whatsapp_signup_config(request_options: nil)
        call("getWhatsAppSignupConfig", {}, request_options: options(request_options))
      end

      # Connect a WhatsApp number through Embedded Signup. Finishes Meta’s Embedded Signup, run in the dashboard with
      # the platform’s Meta app: the OAuth `code` is exchanged for a business integration token, which is checked, and
      # the app is subscribed to the account’s webhooks; then the number is connected as by `POST /channels/whatsapp`.
      # Needs the `admin` role.
      def connect_whatsapp_by_embedded_signup(code:,
                                              waba_id:,
                                              phone_number_id:,
                                              idempotency_key: nil,
                                              request_options: nil)
        call("connectWhatsAppByEmbeddedSignup",
             {},
             body: body_of("connectWhatsAppByEmbeddedSignup", given(code: code, waba_id: waba_id, phone_number_id: phone_number_id)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Inject a customer message (sandbox). A customer message on the sandbox channel, through the same code path as a
      # WhatsApp message: it joins the customer’s unresolved conversation or opens a new one. A small file (`media`,
      # base64, at most 150 KB, WhatsApp’s types) is stored at once, as a WhatsApp customer’s would be after its copy.
      # The sandbox provider accepts every outbound message, except text containing `[fail]`. The sandbox plays
      # WhatsApp’s 24-hour window: `sent_at` in the past (when the customer wrote) leaves it closed once 24 hours have
      # passed.
      def sandbox_inbound(from:,
                          name: UNSET,
                          text: UNSET,
                          media: UNSET,
                          provider_message_id: UNSET,
                          payload: UNSET,
                          sent_at: UNSET,
                          idempotency_key: nil,
                          request_options: nil)
        call("injectSandboxMessage",
             {},
             body: body_of("injectSandboxMessage", given(from: from, name: name, text: text, media: media, provider_message_id: provider_message_id, payload: payload, sent_at: sent_at)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.media`.
    class Media < Base
      # Upload a file to send. Declares a file (its kind, MIME type and size, within WhatsApp’s limits: image 5 MB JPEG
      # or PNG, video 16 MB MP4 or 3GPP, audio 16 MB AAC, AMR, MP3, MP4 or OGG, document 100 MB PDF, text or Office,
      # sticker 500 KB WebP) and returns a presigned URL to PUT its bytes to, for 15 minutes. Then send it: `{"image":
      # {"media_id": "med_…"}}` on a conversation’s messages. Files are kept for the media retention (90 days).
      def create_upload(type:, mime_type:, size:, filename: UNSET, idempotency_key: nil, request_options: nil)
        call("createMediaUpload",
             {},
             body: body_of("createMediaUpload", given(type: type, mime_type: mime_type, size: size, filename: filename)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.payments`.
    class Payments < Base
      # List payments. Newest first; filter by `status`, `booking_id`, `customer_id` and the creation time (`from`,
      # `to`).
      def list(status: UNSET,
               booking_id: UNSET,
               customer_id: UNSET,
               from: UNSET,
               to: UNSET,
               limit: UNSET,
               cursor: UNSET,
               request_options: nil)
        paged("listPayments",
              {},
              given(status: status, booking_id: booking_id, customer_id: customer_id, from: from, to: to, limit: limit, cursor: cursor),
              request_options)
      end

      # Create a payment link. A link for a booking and/or a conversation, with the tenant’s provider (the sandbox, or
      # Stripe Checkout). `send: true` also sends it into the conversation as a message. Amounts are whole minor units
      # from 1 to 99999999. Emits `payment.created`.
      def create(amount:,
                 currency:,
                 booking_id: UNSET,
                 conversation_id: UNSET,
                 purpose: UNSET,
                 description: UNSET,
                 expires_in_minutes: UNSET,
                 send: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createPayment",
             {},
             body: body_of("createPayment", given(amount: amount, currency: currency, booking_id: booking_id, conversation_id: conversation_id, purpose: purpose, description: description, expires_in_minutes: expires_in_minutes, send: send)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get the payment settings. The provider, refund policy, hold and per-service requirements. Stripe’s secrets are
      # never returned.
      def get_settings(request_options: nil)
        call("getPaymentSettings", {}, request_options: options(request_options))
      end

      # Change the payment settings (admin). Changes what is sent. `provider: stripe` needs Stripe connected first.
      # Needs the `admin` role.
      def update_settings(provider: UNSET,
                          refund_policy: UNSET,
                          hold_minutes: UNSET,
                          booking_requirements: UNSET,
                          request_options: nil)
        call("updatePaymentSettings",
             {},
             body: body_of("updatePaymentSettings", given(provider: provider, refund_policy: refund_policy, hold_minutes: hold_minutes, booking_requirements: booking_requirements)),
             request_options: options(request_options))
      end

      # Connect Stripe (admin). A restricted key (write access to Checkout Sessions and Refunds) and the signing secret
      # of the endpoint added in Stripe at `webhook_path`. The key is checked with a call to Stripe; both are sealed and
      # never returned. The provider becomes `stripe`. Needs the `admin` role.
      def connect_stripe(secret_key:, webhook_secret:, idempotency_key: nil, request_options: nil)
        call("connectStripe",
             {},
             body: body_of("connectStripe", given(secret_key: secret_key, webhook_secret: webhook_secret)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a payment. The payment, its link and its refunds.
      def get(id, request_options: nil)
        call("getPayment", { id: id }, request_options: options(request_options))
      end

      # Refund a payment (admin). Gives back `amount` minor units (default: all that is left), at most what was paid
      # less what was refunded. Safe to race: each refund is reserved on the payment before it is sent. Emits
      # `payment.refunded` once the provider takes it. Needs the `admin` role.
      def refund(id, amount: UNSET, idempotency_key: nil, request_options: nil)
        call("refundPayment",
             { id: id },
             body: body_of("refundPayment", given(amount: amount)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Withdraw an unpaid link. The link closes (`payment.canceled`); a booking waiting for it is cancelled
      # (`payment_canceled`). A customer who pays at that moment is refunded in full.
      def cancel(id, idempotency_key: nil, request_options: nil)
        call("cancelPayment", { id: id }, request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Send the link into the conversation. Sends (or sends again) an open link into the payment’s conversation, as a
      # message.
      def create(id, idempotency_key: nil, request_options: nil)
        call("sendPaymentLink", { id: id }, request_options: options(request_options, idempotency_key: idempotency_key))
      end
      alias send_message create
    end

    # `client.bookings`.
    class Bookings < Base
      # List bookings. Latest start first; `from` and `to` bound the start time.
      def list(status: UNSET,
               customer_id: UNSET,
               from: UNSET,
               to: UNSET,
               limit: UNSET,
               cursor: UNSET,
               request_options: nil)
        paged("listBookings",
              {},
              given(status: status, customer_id: customer_id, from: from, to: to, limit: limit, cursor: cursor),
              request_options)
      end

      # Create a booking. Created `confirmed` unless `status: "pending"`. Times take any offset and are stored in UTC; a
      # booking lasts at most 24 hours. Two active bookings of one `resource_id` never overlap (half-open intervals):
      # the second is 409 `booking_conflict`.
      def create(customer:,
                 service:,
                 start_at:,
                 end_at:,
                 timezone:,
                 conversation_id: UNSET,
                 resource_id: UNSET,
                 notes: UNSET,
                 metadata: UNSET,
                 status: UNSET,
                 payment: UNSET,
                 send_payment_link: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createBooking",
             {},
             body: body_of("createBooking", given(customer: customer, service: service, start_at: start_at, end_at: end_at, timezone: timezone, conversation_id: conversation_id, resource_id: resource_id, notes: notes, metadata: metadata, status: status, payment: payment, send_payment_link: send_payment_link)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # A resource's free time. The busy and free time of one `resource_id` between `from` and `to` (at most 31 days;
      # the schedule keeps the last 24 hours and the future, so an earlier `from` is answered from 24 hours ago), and
      # with `duration_minutes` the slots still bookable. Pending and confirmed bookings hold time; cancelled, completed
      # and no-show ones do not. A slot listed here can still be taken before it is booked: the booking is then 409
      # `booking_conflict`.
      def availability(resource_id:,
                       from:,
                       to:,
                       duration_minutes: UNSET,
                       step_minutes: UNSET,
                       reschedule_booking_id: UNSET,
                       request_options: nil)
        call("getAvailability",
             {},
             query: given(resource_id: resource_id, from: from, to: to, duration_minutes: duration_minutes, step_minutes: step_minutes, reschedule_booking_id: reschedule_booking_id),
             request_options: options(request_options))
      end

      # Get a booking. The booking, with its cancellation and reschedule history.
      def get(id, request_options: nil)
        call("getBooking", { id: id }, request_options: options(request_options))
      end

      # Update a booking. Details, a reschedule (new `start_at`/`end_at`, recorded in `rescheduled_from`) and status
      # changes: pending → confirmed or cancelled; confirmed → completed, cancelled or no_show (the first and last once
      # it has started); the last three are final.
      def update(id,
                 service: UNSET,
                 notes: UNSET,
                 metadata: UNSET,
                 resource_id: UNSET,
                 timezone: UNSET,
                 conversation_id: UNSET,
                 start_at: UNSET,
                 end_at: UNSET,
                 status: UNSET,
                 cancellation_reason: UNSET,
                 if_match: nil,
                 request_options: nil)
        call("updateBooking",
             { id: id },
             body: body_of("updateBooking", given(service: service, notes: notes, metadata: metadata, resource_id: resource_id, timezone: timezone, conversation_id: conversation_id, start_at: start_at, end_at: end_at, status: status, cancellation_reason: cancellation_reason)),
             request_options: options(request_options, if_match: if_match))
      end

      # Cancel a booking. The record stays, `cancelled`, with `cancellation`. Cancelling twice is harmless; a completed
      # or no-show booking is 409.
      def cancel(id, reason: UNSET, if_match: nil, request_options: nil)
        call("cancelBooking",
             { id: id },
             query: given(reason: reason),
             request_options: options(request_options, if_match: if_match))
      end

      # Tell the customer about their booking. Sends the booking’s customer a message saying where it stands, in the
      # booking’s conversation (else the customer’s most recently active one), in `language` (default: the tenant’s),
      # with the time in the booking’s zone: confirmed ("Hi Maria, your Haircut is confirmed for Tuesday 24 November at
      # 15:00. See you then!"), moved (with the time it had), requested (pending) or cancelled. Answered 202 with the
      # message `queued`, as `POST /conversations/{id}/messages` is; it is sent as any message is, with its events. A
      # booking whose customer has no conversation, or one that is over (completed, no-show), is 422.
      def notify(id, language: UNSET, idempotency_key: nil, request_options: nil)
        call("notifyBookingCustomer",
             { id: id },
             query: given(language: language),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.schedules`.
    class Schedules < Base
      # List schedules. The opening hours of each resource that has them, A to Z by resource.
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listSchedules", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Set a resource’s opening hours. Hours for each weekday and for particular dates, as wall-clock times in
      # `timezone` (so 09:00 stays 09:00 across daylight-saving changes). Once a resource has a schedule, an active
      # booking of it must lie wholly within its hours (422 `outside_opening_hours`), and availability counts the rest
      # as `closed`; bookings made before keep their time. With buffers, each booking made or moved from then on also
      # keeps the resource free for that long before and after it (409 `booking_conflict` when another booking is in
      # that time). A resource without a schedule is open at all times. Needs the `admin` role.
      def create(resource_id:,
                 timezone:,
                 weekly_hours:,
                 date_overrides: UNSET,
                 buffer_before_minutes: UNSET,
                 buffer_after_minutes: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createSchedule",
             {},
             body: body_of("createSchedule", given(resource_id: resource_id, timezone: timezone, weekly_hours: weekly_hours, date_overrides: date_overrides, buffer_before_minutes: buffer_before_minutes, buffer_after_minutes: buffer_after_minutes)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a resource’s opening hours. The schedule of one resource; 404 when it has none (it is open at all times).
      def get(resource_id, request_options: nil)
        call("getSchedule", { resource_id: resource_id }, request_options: options(request_options))
      end

      # Change a resource’s opening hours. Changes what is sent: each weekday in `weekly_hours` (the days left out keep
      # their hours; `[]` closes one), `date_overrides` as the whole list, `timezone`, the buffers. Bookings already
      # made keep their time and their buffers. Needs the `admin` role.
      def update(resource_id,
                 timezone: UNSET,
                 weekly_hours: UNSET,
                 date_overrides: UNSET,
                 buffer_before_minutes: UNSET,
                 buffer_after_minutes: UNSET,
                 if_match: nil,
                 request_options: nil)
        call("updateSchedule",
             { resource_id: resource_id },
             body: body_of("updateSchedule", given(timezone: timezone, weekly_hours: weekly_hours, date_overrides: date_overrides, buffer_before_minutes: buffer_before_minutes, buffer_after_minutes: buffer_after_minutes)),
             request_options: options(request_options, if_match: if_match))
      end

      # Remove a resource’s opening hours. The resource is open at all times again. Needs the `admin` role.
      def delete(resource_id, if_match: nil, request_options: nil)
        call("deleteSchedule",
             { resource_id: resource_id },
             request_options: options(request_options, if_match: if_match))
        nil
      end
    end

    # `client.ai`.
    class Ai < Base
      # Analyse a text or a message. Sentiment, intent (and the top three), entities (dates resolved in the tenant’s
      # time zone, emails, phones, money), language and a handoff verdict, for `{text}` or a stored `{conversation_id,
      # message_id}`.
      def analyze(text: UNSET, conversation_id: UNSET, message_id: UNSET, idempotency_key: nil, request_options: nil)
        call("analyze",
             {},
             body: body_of("analyze", given(text: text, conversation_id: conversation_id, message_id: message_id)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Suggest replies. Reply suggestions for a conversation (or a transcript), grounded in the customer’s name and
      # their next booking.
      def suggest(conversation_id: UNSET, messages: UNSET, count: UNSET, idempotency_key: nil, request_options: nil)
        call("suggestReplies",
             {},
             body: body_of("suggestReplies", given(conversation_id: conversation_id, messages: messages, count: count)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Categorise a conversation. Category, candidates and suggested tags; `apply: true` sets the category and adds the
      # tags (emitting `conversation.updated`).
      def categorize(conversation_id:, apply: UNSET, idempotency_key: nil, request_options: nil)
        call("categorizeConversation",
             {},
             body: body_of("categorizeConversation", given(conversation_id: conversation_id, apply: apply)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.webhooks`.
    class Webhooks < Base
      # List webhook endpoints. The tenant’s endpoints (at most 50), newest first; never their secrets. Agents get each
      # URL’s origin only (`url_redacted`).
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listWebhooks", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Register a webhook endpoint. Only `https` URLs without credentials, on port 443 or 1024–65535, whose host
      # resolves to public addresses only (422 `unsafe_url`). At most 50 endpoints per tenant. The endpoint gets every
      # matching event committed after this response. The signing secret is in this response only. Needs the `admin`
      # role.
      def create(url:, events:, description: UNSET, is_active: UNSET, idempotency_key: nil, request_options: nil)
        call("createWebhook",
             {},
             body: body_of("createWebhook", given(url: url, events: events, description: description, is_active: is_active)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a webhook endpoint. The endpoint’s URL (for agents, its origin only: `url_redacted`), subscriptions and
      # state; never its secrets.
      def get(id, request_options: nil)
        call("getWebhook", { id: id }, request_options: options(request_options))
      end

      # Update a webhook endpoint. `is_active: false` stops deliveries at once: nothing new is queued, and pending
      # retries end `cancelled`. Needs the `admin` role.
      def update(id,
                 url: UNSET,
                 events: UNSET,
                 description: UNSET,
                 is_active: UNSET,
                 if_match: nil,
                 request_options: nil)
        call("updateWebhook",
             { id: id },
             body: body_of("updateWebhook", given(url: url, events: events, description: description, is_active: is_active)),
             request_options: options(request_options, if_match: if_match))
      end

      # Delete a webhook endpoint. Pending retries stop; the delivery history stays readable. With If-Match, only that
      # version is deleted. Needs the `admin` role.
      def delete(id, if_match: nil, request_options: nil)
        call("deleteWebhook", { id: id }, request_options: options(request_options, if_match: if_match))
        nil
      end

      # Rotate the signing secret. A new secret signs from now on; the one it replaces keeps signing too for 24 h (two
      # signatures), and any older one stops at once. With If-Match, only that version is rotated (412 otherwise);
      # without it, a rotation that meets a concurrent change is made again on the fresh endpoint, unless that change
      # was another rotation (409 `concurrent_update`: its secret stands). Needs the `admin` role.
      def rotate_secret(id, idempotency_key: nil, if_match: nil, request_options: nil)
        call("rotateWebhookSecret",
             { id: id },
             request_options: options(request_options, idempotency_key: idempotency_key, if_match: if_match))
      end

      # Send a test event. Delivers a `webhook.test` event to this endpoint now (an inactive endpoint receives nothing).
      # Needs the `admin` role.
      def test(id, idempotency_key: nil, request_options: nil)
        call("sendTestEvent", { id: id }, request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Replay failed deliveries. Replays every failed delivery of this endpoint for events between `since` and `until`
      # (without `until`, every one failed by the time of the call), up to 1,000 per call. Needs the `admin` role.
      def recover(id, since:, until: UNSET, idempotency_key: nil, request_options: nil)
        call("recoverWebhookDeliveries",
             { id: id },
             body: body_of("recoverWebhookDeliveries", given(since: since, until: binding.local_variable_get(:until))),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # List an endpoint’s deliveries. This endpoint’s deliveries, newest first. `status` and `event_type` filter them;
      # `since` and `until` bound the event’s time. A page reads at most 1,000 deliveries to find its matches, so a
      # narrow `event_type` may give a short page with `has_more`.
      def deliveries(id,
                     status: UNSET,
                     event_type: UNSET,
                     since: UNSET,
                     until: UNSET,
                     limit: UNSET,
                     cursor: UNSET,
                     request_options: nil)
        paged("listWebhookEndpointDeliveries",
              { id: id },
              given(status: status, event_type: event_type, since: since, until: binding.local_variable_get(:until), limit: limit, cursor: cursor),
              request_options)
      end
    end

    # `client.webhook_deliveries`.
    class WebhookDeliveries < Base
      # List failed deliveries. The failed-delivery view across the tenant’s endpoints, newest event first; `status`
      # picks another status. `webhook_id` (a deleted endpoint’s too) and `event_type` narrow it; `since` and `until`
      # bound the event’s time. A page reads at most 1,000 deliveries to find its matches, so a narrow `event_type` may
      # give a short page with `has_more`.
      def list(status: UNSET,
               event_type: UNSET,
               since: UNSET,
               until: UNSET,
               webhook_id: UNSET,
               limit: UNSET,
               cursor: UNSET,
               request_options: nil)
        paged("listWebhookDeliveries",
              {},
              given(status: status, event_type: event_type, since: since, until: binding.local_variable_get(:until), webhook_id: webhook_id, limit: limit, cursor: cursor),
              request_options)
      end

      # Get a delivery. The payload and every attempt: time, status code, duration, error, and the first 1 KB of the
      # response.
      def get(id, request_options: nil)
        call("getWebhookDelivery", { id: id }, request_options: options(request_options))
      end

      # Replay a delivery. Starts a new cycle with the full retry schedule. A delivery still pending is 409. Needs the
      # `admin` role.
      def retry(id, idempotency_key: nil, request_options: nil)
        call("retryWebhookDelivery",
             { id: id },
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
      alias redeliver retry
    end

    # `client.events`.
    class Events < Base
      # List events. The tenant’s events of the last 30 days, newest first: what a webhook may have missed. `type` takes
      # an exact type or `*`, `conversation.*`, `booking.*`, `payment.*` (reserved); `since` and `until` bound the time;
      # `after` (an event id) keeps only later events, read strongly consistent: how a realtime client resumes after a
      # drop. A `conversation.*` page, or one of a conversation type, evaluates at most 1,000 events, so it may be short
      # (even empty) with `has_more`: follow `next_cursor`. A message's status events (sent, delivered, read, failed)
      # are listed a moment after the status moved: a poller should overlap its `since` window and dedupe on the event
      # id.
      def list(type: UNSET, since: UNSET, until: UNSET, after: UNSET, limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listEvents",
              {},
              given(type: type, since: since, until: binding.local_variable_get(:until), after: after, limit: limit, cursor: cursor),
              request_options)
      end

      # Get an event. One event of the last 30 days, exactly as webhooks deliver it. A receiver can fetch the event a
      # delivery names instead of trusting its body, and learn whether an id is one of the tenant’s events.
      def get(id, request_options: nil)
        call("getEvent", { id: id }, request_options: options(request_options))
      end
    end

    # `client.realtime`.
    class Realtime < Base
      # Create a realtime ticket. A short-lived, single-use ticket to open a realtime WebSocket connection
      # (docs/realtime.md): the socket then receives every event of the tenant committed after it opened, as the same
      # envelopes as webhooks and `GET /events`, filtered by the caller’s role and by the optional subscription
      # (`types`, `conversation_id`). A ticket used twice, expired or presented for another tenant is refused at the
      # handshake (401). At most 200 connections per tenant and 10 per user or key.
      def create_ticket(types: UNSET, conversation_id: UNSET, idempotency_key: nil, request_options: nil)
        call("createRealtimeTicket",
             {},
             body: body_of("createRealtimeTicket", given(types: types, conversation_id: conversation_id)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # `client.settings`.
    class Settings < Base
      # Get the tenant’s settings. The caller’s own tenant: its name, plan, time zone and default language.
      def get(request_options: nil)
        call("getSettings", {}, request_options: options(request_options))
      end

      # Update the tenant’s settings. Admins change their own tenant’s name, time zone (in which the dashboard,
      # reminders and the AI say times) or default language. The plan, its limit and the status are the operator’s.
      # Needs the `admin` role.
      def update(name: UNSET, timezone: UNSET, default_language: UNSET, if_match: nil, request_options: nil)
        call("updateSettings",
             {},
             body: body_of("updateSettings", given(name: name, timezone: timezone, default_language: default_language)),
             request_options: options(request_options, if_match: if_match))
      end
    end

    # `client.tenants`.
    class Tenants < Base
      # List tenants. Every tenant, newest first.
      def list(limit: UNSET, cursor: UNSET, request_options: nil)
        paged("listTenants", {}, given(limit: limit, cursor: cursor), request_options)
      end

      # Create a tenant. Creates the tenant, its first admin and its first API key in one transaction. The key is in
      # this response only.
      def create(name:,
                 plan:,
                 admin:,
                 rate_limit_per_hour: UNSET,
                 timezone: UNSET,
                 default_language: UNSET,
                 idempotency_key: nil,
                 request_options: nil)
        call("createTenant",
             {},
             body: body_of("createTenant", given(name: name, plan: plan, admin: admin, rate_limit_per_hour: rate_limit_per_hour, timezone: timezone, default_language: default_language)),
             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Get a tenant. The tenant, with its effective hourly limit.
      def get(id, request_options: nil)
        call("getTenant", { id: id }, request_options: options(request_options))
      end

      # Update a tenant. Changes the name, plan, limit (enterprise only, and required there), status, time zone or
      # default language. `status: suspended` makes every credential of the tenant fail with 403 from the next request
      # on.
      def update(id,
                 name: UNSET,
                 plan: UNSET,
                 rate_limit_per_hour: UNSET,
                 status: UNSET,
                 timezone: UNSET,
                 default_language: UNSET,
                 if_match: nil,
                 request_options: nil)
        call("updateTenant",
             { id: id },
             body: body_of("updateTenant", given(name: name, plan: plan, rate_limit_per_hour: rate_limit_per_hour, status: status, timezone: timezone, default_language: default_language)),
             request_options: options(request_options, if_match: if_match))
      end
    end

    # `client.meta`.
    class Meta < Base
      # This document. The OpenAPI 3.1 document of this API: no credentials needed, not rate-limited.
      def openapi(request_options: nil)
        call("getOpenApiDocument", {}, request_options: options(request_options))
      end
    end
  end
end
