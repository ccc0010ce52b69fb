# frozen_string_literal: true

require "monitor"

module MessagingPlatform
  # `Authorization: Bearer <token>` and, for tenant routes, `X-Tenant-ID`: an API key or the platform token.
  class StaticCredentials
    def initialize(token, tenant_id = nil)
      @token = token
      @tenant_id = tenant_id
    end

    def authorize(headers)
      headers["Authorization"] = "Bearer #{@token}"
      headers["X-Tenant-ID"] = @tenant_id if @tenant_id
      @token
    end
  end

  # A login session's tokens, kept fresh: refreshed before the access token expires and once after a
  # 401, one refresh at a time (the API revokes a session whose rotated refresh token is presented
  # twice, so two parallel refreshes would end it). Thread-safe.
  class SessionCredentials
    DEFAULT_REFRESH_LEEWAY = 60

    # tokens: a Models::Tokens. received_at: when the login or refresh answered (makes `expires_in`
    # count from this machine's clock). on_session_change: called with the new Tokens after every
    # refresh, and nil after logout.
    def initialize(transport, tokens, refresh_leeway_seconds: nil, on_session_change: nil, received_at: nil)
      @transport = transport
      @current = tokens
      @deadline = SessionCredentials.deadline_of(tokens, received_at)
      @leeway = refresh_leeway_seconds || DEFAULT_REFRESH_LEEWAY
      @on_session_change = on_session_change
      @lock = Monitor.new
    end

    # The current tokens (Models::Tokens), or nil after logout.
    def tokens
      @lock.synchronize { @current }
    end

    def authorize(headers)
      tokens = @lock.synchronize do
        current = require_tokens
        now >= @deadline - @leeway ? do_refresh : current
      end
      headers["Authorization"] = "Bearer #{tokens.access_token}"
      headers["X-Tenant-ID"] = tokens.tenant_id
      tokens.access_token
    end

    # After a 401 with `rejected_token`: true when the request is worth repeating with fresh tokens.
    def recover(rejected_token)
      @lock.synchronize do
        return false if @current.nil?
        # Another request refreshed meanwhile: just repeat with the newer token.
        return true if rejected_token && @current.access_token != rejected_token

        begin
          do_refresh
          true
        rescue AuthenticationError
          false # the session is over: the 401 stands
        end
      end
    end

    # Rotates the token pair now; concurrent callers wait for the one refresh in flight.
    def refresh
      @lock.synchronize { do_refresh }
    end

    # Forgets the tokens (after logout).
    def clear
      @lock.synchronize { @current = nil }
      @on_session_change&.call(nil)
    end

    def self.deadline_of(tokens, received_at)
      return received_at + tokens.expires_in if received_at && tokens.expires_in.is_a?(Numeric)

      Time.iso8601(tokens.expires_at.to_s).to_f
    rescue ArgumentError
      0.0
    end

    private

    def now
      Process.clock_gettime(Process::CLOCK_REALTIME)
    end

    def do_refresh
      tokens = require_tokens
      sent_at = now
      response = @transport.request(
        method: :post, path: OPERATIONS.fetch("refreshSession").path, auth: :none,
        body: { refresh_token: tokens.refresh_token },
        # A refresh the API carried out but whose answer was lost cannot be repeated: the old refresh
        # token would count as stolen and end the session. Retry only what the API refused (429, 503).
        retry_policy: :refused,
        options: { headers: { "X-Tenant-ID" => tokens.tenant_id } }
      )
      raise Error, "The session was logged out." if @current.nil?

      @current = Models::Tokens.new(response.body)
      @deadline = SessionCredentials.deadline_of(@current, sent_at)
      @on_session_change&.call(@current)
      @current
    end

    def require_tokens
      @current or raise Error, "This client has logged out; log in again."
    end
  end
end
