# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # AI functions: `client.ai`.
    class Ai < Base
      # Sentiment, intent, entities, language and a handoff verdict, for `text:` or a stored message
      # (`conversation_id:`, `message_id:`). Returns a Models::Analysis.
      def analyze(idempotency_key: nil, request_options: nil, **params)
        call("analyze", body: body_of("analyze", params), request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Reply suggestions grounded in the customer's name and next booking (`conversation_id:`, `count:`).
      def suggest(idempotency_key: nil, request_options: nil, **params)
        call("suggestReplies", body: body_of("suggestReplies", params),
                               request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # A category and tags for a conversation (`conversation_id:`); `apply: true` sets them.
      def categorize(idempotency_key: nil, request_options: nil, **params)
        call("categorizeConversation", body: body_of("categorizeConversation", params),
                                       request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end
  end
end
