# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # The team's saved replies (canned responses): `client.saved_replies`. Each has a shortcut unique in
    # the tenant (stored in lower case); one another reply has raises ConflictError (`shortcut_taken`).
    class SavedReplies < Base
      # Saved replies, A to Z by shortcut; `shortcut:` gives those whose shortcut starts with it (`/` left off).
      def list(shortcut: nil, limit: nil, cursor: nil, request_options: nil)
        paged("listSavedReplies", {}, { shortcut: shortcut, limit: limit, cursor: cursor }.compact, request_options)
      end

      # Saves a reply. Its text may use placeholders, filled in by `render`: `{{customer.name}}`,
      # `{{customer.first_name}}`, `{{customer.phone}}`, `{{agent.name}}`, `{{agent.first_name}}`, each with
      # an optional fallback (`{{customer.first_name | there}}`); an unknown one raises ValidationError.
      # Returns a Models::SavedReply.
      def create(shortcut:, title:, text:, idempotency_key: nil, request_options: nil)
        params = { shortcut: shortcut, title: title, text: text }
        call("createSavedReply", body: body_of("createSavedReply", params),
                                 request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # A saved reply, its placeholders as written.
      def get(id, request_options: nil)
        call("getSavedReply", { id: id }, request_options: options(request_options))
      end

      # Changes its shortcut, title or text: only those given are sent. `if_match: reply.version` raises
      # PreconditionFailedError if someone changed it meanwhile.
      def update(id, shortcut: nil, title: nil, text: nil, if_match: nil, request_options: nil)
        changes = { shortcut: shortcut, title: title, text: text }.compact
        call("updateSavedReply", { id: id }, body: body_of("updateSavedReply", changes),
                                             request_options: options(request_options, if_match: if_match))
      end

      # Deletes it; its shortcut is free again at once. Returns nil.
      def delete(id, request_options: nil)
        call("deleteSavedReply", { id: id }, request_options: options(request_options))
        nil
      end

      # The reply's text filled in for a conversation (`customer.*` from its customer, `agent.*` from the
      # user asking: an API key has no name). Nothing is sent. Returns a Models::RenderedSavedReply:
      # `text`, and `missing`, the placeholders with no value and no fallback (left empty in `text`).
      def render(id, conversation_id:, idempotency_key: nil, request_options: nil)
        call("renderSavedReply", { id: id }, body: body_of("renderSavedReply", { conversation_id: conversation_id }),
                                             request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end
  end
end
