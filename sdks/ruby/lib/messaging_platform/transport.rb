# frozen_string_literal: true

require "date"
require "json"
require "net/http"
require "openssl"
require "securerandom"
require "time"
require "uri"
require "zlib"

module MessagingPlatform
  # The hourly limit as of the last response (`X-RateLimit-*` headers).
  RateLimitInfo = Struct.new(:limit, :remaining, :reset_at, keyword_init: true)

  # A successful response: status, headers (lower-case names), parsed body, `X-Request-Id`.
  Response = Struct.new(:status, :headers, :body, :request_id, keyword_init: true)

  # What every resource calls through: URL and headers, credentials, per-attempt timeouts, retries with
  # exponential backoff and jitter (honouring `Retry-After`), an automatic `Idempotency-Key` on POSTs,
  # and problem+json errors raised as typed exceptions.
  class Transport
    DEFAULT_MAX_RETRIES = 2
    DEFAULT_TIMEOUT = 60.0
    DEFAULT_MAX_RETRY_DELAY = 60.0
    INITIAL_BACKOFF = 0.5
    MAX_BACKOFF = 8.0
    # Per-call options every resource method takes in `request_options:`.
    REQUEST_OPTIONS = %i[idempotency_key if_match timeout max_retries headers].freeze

    NETWORK_ERRORS = [
      SystemCallError, IOError, EOFError, SocketError, OpenSSL::SSL::SSLError, Net::HTTPBadResponse,
      Net::ProtocolError, Zlib::Error
    ].freeze
    TIMEOUT_ERRORS = [Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout, Errno::ETIMEDOUT].freeze

    attr_reader :base_url, :max_retries, :timeout, :max_retry_delay
    # The rate limit reported by the last response that carried one (RateLimitInfo), or nil.
    attr_reader :rate_limit

    # base_url: the API's address (`/api/v1` is added unless it ends with `/v1`). max_retries: retries
    # after the first attempt (429, 5xx, timeouts, network errors). timeout: seconds per attempt (open,
    # write and each read). max_retry_delay: the longest Retry-After waited out, in seconds. headers:
    # extra headers on every request. ca_file: a CA bundle to trust for https (default: the system's).
    def initialize(base_url:, max_retries: nil, timeout: nil, max_retry_delay: nil, headers: nil, ca_file: nil)
      @base_url = Transport.api_base(base_url)
      @max_retries = Transport.non_negative(max_retries, DEFAULT_MAX_RETRIES, "max_retries")
      @timeout = Transport.non_negative(timeout, DEFAULT_TIMEOUT, "timeout")
      @max_retry_delay = Transport.non_negative(max_retry_delay, DEFAULT_MAX_RETRY_DELAY, "max_retry_delay")
      @extra_headers = (headers || {}).to_h { |name, value| [name.to_s, value.to_s] }
      @ca_file = ca_file
      @credentials = {}
    end

    def set_credentials(kind, credentials)
      @credentials[kind] = credentials
    end

    # Calls the API and returns a Response, or raises an ApiError or ConnectionError. `retry_policy`
    # :safe retries after any retryable failure (GET, PATCH, DELETE, and POSTs, which carry an
    # Idempotency-Key); :refused only after 429 and 503, when the API said it did not act (refreshing
    # a session, which must not run twice).
    def request(method:, path:, auth:, query: nil, body: nil, retry_policy: :safe, options: {})
      options = Transport.check_options(options)
      max_retries = Transport.non_negative(options[:max_retries], @max_retries, "max_retries")
      timeout = Transport.non_negative(options[:timeout], @timeout, "timeout")
      credentials = auth == :none ? nil : @credentials[auth]
      raise Error, "This client has no #{auth} credentials." if auth != :none && credentials.nil?
      # A conditional PATCH or DELETE is retried only when the API refused it: after a lost response it
      # may have been applied, and its retry would answer 412 for the caller's own change (a POST is
      # replayed by its Idempotency-Key instead).
      retry_policy = :refused if !options[:if_match].nil? && method != :post

      # One key for every attempt of this call, so a retry after a lost response replays it.
      idempotency_key = options[:idempotency_key] || SecureRandom.uuid if method == :post && auth != :none
      uri = url(path, query)
      payload = body.nil? ? nil : JSON.generate(Transport.jsonable(body))
      recovered = false
      retry_count = 0

      loop do
        headers = base_headers(payload, idempotency_key, options)
        token = credentials&.authorize(headers)
        outcome = attempt(method, uri, headers, payload, timeout)

        if outcome.is_a?(ConnectionError)
          raise outcome unless retry_policy == :safe && retry_count < max_retries

          sleep(Transport.backoff_delay(retry_count))
          retry_count += 1
          next
        end

        note_rate_limit(outcome[:headers])
        return success(outcome) if outcome[:status].between?(200, 299)

        error = MessagingPlatform.error_for(outcome[:status], Transport.problem_of(outcome), outcome[:headers])
        if outcome[:status] == 401 && !recovered && credentials.respond_to?(:recover)
          recovered = true
          next if credentials.recover(token) # a refreshed session is not a retry
        end
        delay = retry_delay(error, retry_count, max_retries, retry_policy)
        raise error if delay.nil?

        sleep(delay)
        retry_count += 1
      end
    end

    # The full URL of a path below the API base, with a query string.
    def url(path, query = nil)
      pairs = (query || {}).filter_map do |name, value|
        [name.to_s, Transport.query_value(value)] unless value.nil?
      end
      URI("#{@base_url}#{path}#{pairs.empty? ? '' : "?#{URI.encode_www_form(pairs)}"}")
    end

    class << self
      # The API base: `/api/v1` is added unless the URL already ends with a version segment.
      def api_base(base_url)
        uri = URI.parse(base_url.to_s)
        unless uri.is_a?(URI::HTTP) && uri.host && !uri.host.empty?
          raise Error, "base_url must be an absolute http(s) URL such as https://api.example.com, not #{base_url.inspect}"
        end

        path = uri.path.sub(%r{/+\z}, "")
        path = "#{path}/api/v1" unless path.match?(%r{/v1\z})
        "#{uri.scheme}://#{uri.host}#{uri.port == uri.default_port ? '' : ":#{uri.port}"}#{path}"
      rescue URI::InvalidURIError
        raise Error, "base_url must be an absolute http(s) URL such as https://api.example.com, not #{base_url.inspect}"
      end

      # Exponential backoff with jitter: 0.5 s, 1 s, 2 s … up to 8 s, each between half and all of that.
      def backoff_delay(retry_count, random: Random)
        ceiling = [MAX_BACKOFF, INITIAL_BACKOFF * (2**retry_count)].min
        (ceiling / 2) + (random.rand * ceiling / 2)
      end

      # `If-Match` from a version number or an ETag.
      def etag_of(value)
        return %("#{value}") if value.is_a?(Integer)

        text = value.to_s
        text.match?(%r{\A(W/)?".*"\z}) || text == "*" ? text : %("#{text}")
      end

      def non_negative(value, fallback, name)
        return fallback if value.nil?
        raise Error, "#{name} must be a number >= 0" unless value.is_a?(Numeric) && value.finite? && value >= 0

        value
      end

      def check_options(options)
        options = (options || {}).transform_keys(&:to_sym)
        unknown = options.keys - REQUEST_OPTIONS
        raise ArgumentError, "unknown request option(s): #{unknown.join(', ')}" unless unknown.empty?

        options
      end

      # Body values as JSON: instants as ISO 8601, models as their objects.
      def jsonable(value)
        case value
        when Hash then value.to_h { |k, v| [k.to_s, jsonable(v)] }
        when Array then value.map { |item| jsonable(item) }
        when Model then value.to_h
        when Time, DateTime then value.to_time.utc.iso8601(3)
        when Date then value.iso8601
        when Symbol then value.to_s
        else value
        end
      end

      def query_value(value)
        case value
        when Time, DateTime then value.to_time.utc.iso8601(3)
        when Date then value.iso8601
        else value.to_s
        end
      end

      def problem_of(outcome)
        parsed = JSON.parse(outcome[:text])
        return parsed if parsed.is_a?(Hash)

        raise JSON::ParserError
      rescue JSON::ParserError
        # Not JSON: a proxy or load balancer answered.
        text = outcome[:text].to_s[0, 500]
        { "status" => outcome[:status], "title" => outcome[:message].to_s.empty? ? "HTTP #{outcome[:status]}" : outcome[:message],
          "detail" => text.empty? ? nil : text }.compact
      end
    end

    private

    def base_headers(payload, idempotency_key, options)
      headers = { "Accept" => "application/json",
                  "User-Agent" => "messaging-platform-sdk-ruby/#{VERSION} ruby/#{RUBY_VERSION}" }
      headers.merge!(@extra_headers)
      headers["Content-Type"] = "application/json" if payload
      headers["Idempotency-Key"] = idempotency_key if idempotency_key
      headers["If-Match"] = Transport.etag_of(options[:if_match]) unless options[:if_match].nil?
      (options[:headers] || {}).each { |name, value| headers[name.to_s] = value.to_s }
      headers
    end

    # One attempt: { status:, headers:, text:, message: }, or a ConnectionError (returned, not raised).
    def attempt(method, uri, headers, payload, timeout)
      request = Net::HTTPGenericRequest.new(method.to_s.upcase, !payload.nil?, true, uri.request_uri, headers)
      request.body = payload if payload
      http = Net::HTTP.new(uri.host, uri.port)
      http.use_ssl = uri.scheme == "https"
      http.ca_file = @ca_file if @ca_file
      # The SDK retries by itself, with the same Idempotency-Key; Net::HTTP must not repeat requests.
      http.max_retries = 0
      if timeout.positive?
        http.open_timeout = timeout
        http.read_timeout = timeout
        http.write_timeout = timeout
        http.ssl_timeout = timeout
      end
      response = http.start { |connection| connection.request(request) }
      headers = {}
      response.each_header { |name, value| headers[name.downcase] = value }
      { status: response.code.to_i, headers: headers, text: response.body.to_s, message: response.message,
        content_type: response["content-type"].to_s }
    rescue *TIMEOUT_ERRORS => e
      TimeoutError.new("No response from #{method.to_s.upcase} #{uri} within #{timeout} s (#{e.class}).")
    rescue *NETWORK_ERRORS => e
      ConnectionError.new("#{method.to_s.upcase} #{uri} failed: #{e.message} (#{e.class})")
    end

    def success(outcome)
      Response.new(status: outcome[:status], headers: outcome[:headers], body: parse_body(outcome),
                   request_id: outcome[:headers]["x-request-id"])
    end

    def parse_body(outcome)
      return nil if outcome[:text].empty?
      return outcome[:text] unless outcome[:content_type].match?(/json/i)

      JSON.parse(outcome[:text])
    rescue JSON::ParserError => e
      raise Error, "The API answered #{outcome[:status]} with a body that is not valid JSON: #{e.message}"
    end

    # Seconds to wait before retrying after this error, or nil to give up.
    def retry_delay(error, retry_count, max_retries, policy)
      return nil if retry_count >= max_retries

      # The first request with this Idempotency-Key is still running: this one did nothing; a retry replays it.
      in_progress = error.status == 409 && error.code == "idempotency_request_in_progress"
      refused = [429, 503].include?(error.status) || in_progress
      return nil unless refused || (policy == :safe && error.status >= 500)

      retry_after = error.respond_to?(:retry_after) ? error.retry_after : nil
      return Transport.backoff_delay(retry_count) if retry_after.nil?

      # An hourly limit used up: waiting most of an hour inside one call helps nobody.
      retry_after > @max_retry_delay ? nil : retry_after
    end

    def note_rate_limit(headers)
      limit, remaining, reset = headers.values_at("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")
      return if limit.nil? || remaining.nil? || reset.nil?

      @rate_limit = RateLimitInfo.new(limit: limit.to_i, remaining: remaining.to_i, reset_at: Time.at(reset.to_i).utc)
    end
  end
end
