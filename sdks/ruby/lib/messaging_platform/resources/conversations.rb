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

    # Conversations: `client.conversations`.
    class Conversations < Base
      # The conversation's messages.
      attr_reader :messages

      def initialize(transport)
        super
        @messages = Messages.new(transport)
      end

      # Conversations, newest activity first. Filter by `status:`, `tag:`, `channel:` or
      # `customer_id:` (or `status:` with one other); `limit:` is the page size.
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
