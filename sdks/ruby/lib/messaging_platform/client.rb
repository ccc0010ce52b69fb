# frozen_string_literal: true

module MessagingPlatform
  # Options every client accepts, passed on to the Transport.
  TRANSPORT_OPTIONS = %i[max_retries timeout max_retry_delay headers ca_file].freeze

  # The Messaging Platform API client, for one tenant.
  #
  #   client = MessagingPlatform::Client.new(api_key: ENV["MESSAGING_API_KEY"], tenant_id: ENV["MESSAGING_TENANT_ID"],
  #                                          base_url: "https://api.example.com")
  #   client.conversations.list(status: "open").each { |conversation| puts conversation.id }
  #
  # Or a user's session: `MessagingPlatform::Client.login(email:, password:, base_url:)`.
  class Client
    attr_reader :conversations, :customers, :saved_replies, :settings, :templates, :media, :reminder_policy, :bookings, :payments, :schedules, :ai,
                :webhooks, :webhook_deliveries, :api_keys, :users, :events, :channels, :realtime, :auth, :meta

    # API-key mode. api_key: an `sk_…` key; tenant_id: its tenant (`X-Tenant-ID`); base_url: the API's
    # address (`/api/v1` is added). Options: max_retries (2), timeout (60 s per attempt),
    # max_retry_delay (60 s), headers, ca_file.
    def initialize(api_key: nil, tenant_id: nil, base_url:, session: nil, **options)
      @transport = Transport.new(base_url: base_url, **Client.transport_options(options))
      if session
        @session = SessionCredentials.new(@transport, session[:tokens], **session.except(:tokens))
        @transport.set_credentials(:tenant, @session)
      else
        raise Error, "api_key is required (or use MessagingPlatform::Client.login for a user session)" if blank?(api_key)
        raise Error, "tenant_id is required with an API key" if blank?(tenant_id)

        @transport.set_credentials(:tenant, StaticCredentials.new(api_key, tenant_id))
      end
      @conversations = Resources::Conversations.new(@transport)
      @customers = Resources::Customers.new(@transport)
      @saved_replies = Resources::SavedReplies.new(@transport)
      @settings = Resources::Settings.new(@transport)
      @templates = Resources::Templates.new(@transport)
      @media = Resources::Media.new(@transport)
      @reminder_policy = Resources::ReminderPolicy.new(@transport)
      @bookings = Resources::Bookings.new(@transport)
      @payments = Resources::Payments.new(@transport)
      @schedules = Resources::Schedules.new(@transport)
      @ai = Resources::Ai.new(@transport)
      @webhooks = Resources::Webhooks.new(@transport)
      @webhook_deliveries = Resources::WebhookDeliveries.new(@transport)
      @api_keys = Resources::ApiKeys.new(@transport)
      @users = Resources::Users.new(@transport)
      @events = Resources::Events.new(@transport)
      @channels = Resources::Channels.new(@transport)
      # Tickets only: the WebSocket protocol itself is in the README (standard library only, no WebSocket client).
      @realtime = Resources::Realtime.new(@transport)
      @auth = Resources::Auth.new(@transport, @session)
      @meta = Resources::Meta.new(@transport)
    end

    class << self
      # Logs a user in and returns a client on that session. The access token is refreshed before it
      # expires (`refresh_leeway_seconds`, default 60) and once after a 401; `on_session_change` hears
      # every new pair of tokens (to persist them) and nil after logout. `tenant_id` is needed only when
      # the email belongs to users of several tenants.
      def login(email:, password:, base_url:, tenant_id: nil, refresh_leeway_seconds: nil, on_session_change: nil, **options)
        transport = Transport.new(base_url: base_url, **transport_options(options))
        sent_at = Process.clock_gettime(Process::CLOCK_REALTIME)
        response = transport.request(method: :post, path: OPERATIONS.fetch("login").path, auth: :none,
                                     body: { email: email, password: password },
                                     options: tenant_id ? { headers: { "X-Tenant-ID" => tenant_id } } : {})
        tokens = Models::Tokens.new(response.body)
        client = new(base_url: base_url, **options,
                     session: { tokens: tokens, received_at: sent_at, refresh_leeway_seconds: refresh_leeway_seconds,
                                on_session_change: on_session_change })
        on_session_change&.call(tokens)
        client
      end

      # A client on a session saved earlier (the `tokens` of a logged-in client, a Models::Tokens or its
      # Hash).
      def from_session(tokens, base_url:, refresh_leeway_seconds: nil, on_session_change: nil, **options)
        tokens = Models::Tokens.new(tokens.to_h)
        unless %w[access_token refresh_token tenant_id].all? { |name| tokens[name].is_a?(String) && !tokens[name].empty? }
          raise Error, "from_session needs the tokens of a login (access_token, refresh_token, tenant_id)"
        end

        new(base_url: base_url, **options,
            session: { tokens: tokens, refresh_leeway_seconds: refresh_leeway_seconds, on_session_change: on_session_change })
      end

      # @api private
      def transport_options(options)
        unknown = options.keys - TRANSPORT_OPTIONS
        raise ArgumentError, "unknown option(s): #{unknown.join(', ')}" unless unknown.empty?

        options
      end
    end

    # The session's current tokens (Models::Tokens) in session mode; nil after logout or with an API key.
    def tokens
      @session&.tokens
    end

    # Whether this client runs on a login session.
    def session?
      !@session.nil?
    end

    # The hourly limit as of the last response (RateLimitInfo: limit, remaining, reset_at), or nil.
    def rate_limit
      @transport.rate_limit
    end

    # Same as `auth.logout`.
    def logout(request_options: nil)
      @auth.logout(request_options: request_options)
    end

    # The API's OpenAPI document (a Hash).
    def openapi_document(request_options: nil)
      operation = OPERATIONS.fetch("getOpenApiDocument")
      @transport.request(method: operation.method, path: operation.path, auth: operation.auth, options: request_options).body
    end

    # Any endpoint with this client's credentials, retries and errors; the path is relative to
    # `/api/v1`. Returns the parsed JSON body: `client.request(:get, "/events", query: { limit: 5 })`.
    def request(method, path, query: nil, body: nil, request_options: nil)
      @transport.request(method: method.to_s.downcase.to_sym, path: path, query: query, body: body, auth: :tenant,
                         options: request_options).body
    end

    def inspect
      "#<MessagingPlatform::Client #{@transport.base_url} #{session? ? 'session' : 'api key'}>"
    end

    private

    def blank?(value)
      !value.is_a?(String) || value.empty?
    end
  end

  # The operator API (`/platform/tenants`), with the platform token.
  class PlatformClient
    attr_reader :tenants

    def initialize(token:, base_url:, **options)
      raise Error, "PlatformClient needs the platform token" unless token.is_a?(String) && !token.empty?

      @transport = Transport.new(base_url: base_url, **Client.transport_options(options))
      @transport.set_credentials(:platform, StaticCredentials.new(token))
      @tenants = Resources::Tenants.new(@transport)
    end

    # Any platform endpoint; the path is relative to `/api/v1`.
    def request(method, path, query: nil, body: nil, request_options: nil)
      @transport.request(method: method.to_s.downcase.to_sym, path: path, query: query, body: body, auth: :platform,
                         options: request_options).body
    end

    def inspect
      "#<MessagingPlatform::PlatformClient #{@transport.base_url}>"
    end
  end
end
