# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # API keys (admin only): `client.api_keys`.
    class ApiKeys < Base
      def list(request_options: nil, **params)
        paged("listApiKeys", {}, params, request_options)
      end

      # A new key (`name:`, `role:`). Its `key` is in this answer (Models::NewApiKey) only.
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createApiKey", body: body_of("createApiKey", params),
                             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Revokes a key: its next request fails.
      def revoke(id, request_options: nil)
        call("revokeApiKey", { id: id }, request_options: options(request_options))
        nil
      end
    end

    # The tenant's users: `client.users`.
    class Users < Base
      def list(request_options: nil, **params)
        paged("listUsers", {}, params, request_options)
      end

      def get(id, request_options: nil)
        call("getUser", { id: id }, request_options: options(request_options))
      end

      # Adds a user (admin only): `email:`, `password:`, `name:`, `role:` (default `agent`).
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createUser", body: body_of("createUser", params),
                           request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Changes name, role, status or password (admin only).
      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateUser", { id: id }, body: body_of("updateUser", changes),
                                       request_options: options(request_options, if_match: if_match))
      end
    end

    # Events of the last 30 days: `client.events`.
    class Events < Base
      # Newest first; `type:` takes an exact type or `*`, `conversation.*`, `booking.*`; `since:` and
      # `until:` take Time or ISO 8601. Items are Models::Event variants, by `type`.
      def list(request_options: nil, **params)
        paged("listEvents", {}, params, request_options)
      end

      # One event of the last 30 days, as webhooks deliver it (a receiver may fetch the event a delivery
      # names): a Models::Event variant.
      def get(id, request_options: nil)
        call("getEvent", { id: id }, request_options: options(request_options))
      end
    end

    # Channels: `client.channels`.
    class Channels < Base
      # The sandbox and the connected WhatsApp numbers (not paginated): an Array of models.
      def list(request_options: nil)
        call("listChannels", request_options: options(request_options)).data
      end

      # Injects a customer message on the sandbox channel (`from:`, `text:`, `name:`,
      # `provider_message_id:`), the same path as a WhatsApp message: a Models::InboundMessage with the
      # conversation and the message, or a Models::DuplicateInbound for a provider id already received.
      def sandbox_inbound(idempotency_key: nil, request_options: nil, **params)
        call("injectSandboxMessage", body: body_of("injectSandboxMessage", params),
                                     request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Connects a WhatsApp Cloud API number (admin only), after Meta confirms the token controls it.
      def connect_whatsapp(idempotency_key: nil, request_options: nil, **params)
        call("connectWhatsApp", body: body_of("connectWhatsApp", params),
                                request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end

    # The calling credential and the login session's lifecycle: `client.auth`.
    class Auth < Base
      def initialize(transport, session)
        super(transport)
        @session = session
      end

      # Who is calling (Models::ApiKeyCaller or Models::UserCaller), with the role and tenant.
      def me(request_options: nil)
        call("getMe", request_options: options(request_options))
      end

      # Ends the login session at once: its tokens stop working and this client forgets them. A session
      # the API already ended counts as logged out. (With an API key this is a BadRequestError,
      # `not_a_session`: revoke keys with api_keys.revoke.)
      def logout(request_options: nil)
        begin
          call("logout", body: {}, request_options: options(request_options))
        rescue AuthenticationError
          raise unless @session
        end
        @session&.clear
        nil
      end

      # Rotates the session's tokens now (the client also does it by itself before they expire).
      def refresh
        raise Error, "refresh needs a login session (MessagingPlatform::Client.login)" unless @session

        @session.refresh
      end
    end

    # Tenants, through the operator API (platform token): `platform.tenants`.
    class Tenants < Base
      # Creates a tenant (`name:`, `plan:`, `admin: { email:, password:, name: }`) with its first admin
      # user and API key; the key is in this answer (Models::ProvisionedTenant) only.
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createTenant", body: body_of("createTenant", params),
                             request_options: options(request_options, idempotency_key: idempotency_key))
      end

      def list(request_options: nil, **params)
        paged("listTenants", {}, params, request_options)
      end

      def get(id, request_options: nil)
        call("getTenant", { id: id }, request_options: options(request_options))
      end

      # Changes name, plan, limit, status (`suspended`) or time zone.
      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateTenant", { id: id }, body: body_of("updateTenant", changes),
                                         request_options: options(request_options, if_match: if_match))
      end
    end
  end
end
