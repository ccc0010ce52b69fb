# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # A conversation's messages: `client.conversations.messages`.
    class Messages < Base
      # All messages of a conversation, newest first: a PagedList of Models::Message (`limit:`, `cursor:`).
      def list(conversation_id, request_options: nil, **params)
        paged("listMessages", { id: conversation_id }, params, request_options)
      end

      # Sends a reply (`text:`). It is answered `queued`; its status then moves to sent, delivered and
      # read (or failed). Returns a Models::Message.
      def create(conversation_id, idempotency_key: nil, request_options: nil, **params)
        call("sendMessage", { id: conversation_id }, body: body_of("sendMessage", params),
                                                     request_options: options(request_options, idempotency_key: idempotency_key))
      end
      alias send_message create
    end

    # The team's notes on a conversation: `client.conversations.notes`. Never sent to the customer; no event.
    class Notes < Base
      # A conversation's notes, newest first: a PagedList of Models::Note (`limit:`, `cursor:`).
      def list(conversation_id, request_options: nil, **params)
        paged("listNotes", { id: conversation_id }, params, request_options)
      end

      # Adds a note for the team (`text:`). Returns a Models::Note.
      def create(conversation_id, idempotency_key: nil, request_options: nil, **params)
        call("createNote", { id: conversation_id }, body: body_of("createNote", params),
                                                    request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Replaces a note's text (`text:`; sets `edited_at`, moves `version` on): only its author may.
      # `if_match: note.version` raises PreconditionFailedError if it changed meanwhile. Returns a Models::Note.
      def update(conversation_id, note_id, if_match: nil, request_options: nil, **changes)
        call("updateNote", { id: conversation_id, note_id: note_id }, body: body_of("updateNote", changes),
                                                                      request_options: options(request_options, if_match: if_match))
      end

      # Deletes a note: its author may, and an admin may delete anyone's. `if_match:` as for update. Returns nil.
      def delete(conversation_id, note_id, if_match: nil, request_options: nil)
        call("deleteNote", { id: conversation_id, note_id: note_id },
             request_options: options(request_options, if_match: if_match))
        nil
      end
    end

    # Conversations: `client.conversations`.
    class Conversations < Base
      # The conversation's messages and the team's notes on it.
      attr_reader :messages, :notes

      def initialize(transport)
        super
        @messages = Messages.new(transport)
        @notes = Notes.new(transport)
      end

      # Conversations, newest activity first. Filter by `status:`, `tag:`, `customer_id:` or `assignee_id:`
      # (or `status:` with one other; `channel:` and `assignee_id: "none"` with any); `limit:` is the page size.
      def list(request_options: nil, **params)
        paged("listConversations", {}, params, request_options)
      end

      # A conversation with its 20 newest messages (Models::ConversationWithMessages).
      def get(id, request_options: nil)
        call("getConversation", { id: id }, request_options: options(request_options))
      end

      # Opens a conversation with a customer (`customer: { id: }` or `{ phone:, name: }`), optionally
      # with a first `message: { text: }`. Returns a Models::NewConversation.
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createConversation", body: body_of("createConversation", params),
                                   request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Changes status, tags, assignee, priority or category. Pass `if_match: conversation.version` to
      # guard against lost updates (PreconditionFailedError otherwise).
      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateConversation", { id: id }, body: body_of("updateConversation", changes),
                                               request_options: options(request_options, if_match: if_match))
      end
    end
  end
end
