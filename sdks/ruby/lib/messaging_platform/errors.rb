# frozen_string_literal: true

require "time"

module MessagingPlatform
  # Base class of everything the SDK raises on purpose.
  class Error < StandardError; end

  # The API answered with an error status. Built from its RFC 9457 problem+json body.
  class ApiError < Error
    # HTTP status.
    attr_reader :status
    # Machine-readable problem code (`booking_conflict`, `validation_failed` …).
    attr_reader :code
    # Human-readable explanation.
    attr_reader :detail
    # `X-Request-Id`: quote it when reporting a problem.
    attr_reader :request_id
    # Invalid fields on validation problems (Models::FieldError: `path`, `message`); empty otherwise.
    attr_reader :errors
    # The problem type URI and the status text.
    attr_reader :type, :title
    # The whole problem body (a Hash, extension members included).
    attr_reader :problem
    # The response headers (lower-case names).
    attr_reader :headers

    def initialize(status, problem = {}, headers = {})
      @status = status
      @problem = problem.is_a?(Hash) ? problem : {}
      @headers = headers
      @code = @problem["code"].is_a?(String) ? @problem["code"] : "http_#{status}"
      @detail = @problem["detail"].is_a?(String) ? @problem["detail"] : (@problem["title"] || "HTTP #{status}")
      @request_id = @problem["request_id"].is_a?(String) ? @problem["request_id"] : headers["x-request-id"]
      @errors = Array(@problem["errors"]).select { |e| e.is_a?(Hash) }.map { |e| Models::FieldError.new(e) }
      @type = @problem["type"]
      @title = @problem["title"]
      super("#{status} #{@code}: #{@detail}")
    end
  end

  # 400: a malformed request or query (`invalid_query`, `invalid_cursor`, `tenant_required` …).
  class BadRequestError < ApiError; end
  # 401: missing, wrong, expired or revoked credentials.
  class AuthenticationError < ApiError; end
  # 403: another tenant's credential, a suspended tenant, or a role that is not allowed.
  class PermissionDeniedError < ApiError; end
  # The TypeScript SDK's name for PermissionDeniedError.
  PermissionError = PermissionDeniedError
  # 404: no such resource (also another tenant's).
  class NotFoundError < ApiError; end
  # 409: a conflict with the current state (`booking_conflict`, `conversation_exists` …).
  class ConflictError < ApiError; end
  # 412: `If-Match` named a version that is no longer current (`version_mismatch`).
  class PreconditionFailedError < ApiError; end
  # 422: valid JSON that is not acceptable; `errors` names the fields.
  class ValidationError < ApiError; end

  # Errors that may say when to try again (`Retry-After`).
  module RetryAfter
    # Seconds to wait before retrying, when the API said (Float or Integer), else nil.
    attr_reader :retry_after

    def initialize(status, problem = {}, headers = {})
      super
      @retry_after = RetryAfter.parse(headers["retry-after"])
    end

    # `Retry-After` as seconds: delta-seconds or an HTTP date.
    def self.parse(value, now = Time.now)
      return nil if value.nil? || value.strip.empty?

      text = value.strip
      return (text.include?(".") ? Float(text) : Integer(text, 10)) if text.match?(/\A\d+(\.\d+)?\z/)

      [Time.httpdate(text) - now, 0].max
    rescue ArgumentError
      nil
    end
  end

  # 429: the tenant's hourly limit (or a login limit) is used up.
  class RateLimitError < ApiError
    include RetryAfter
  end

  # 5xx: the API failed or is throttled (503 `dependency_throttled`).
  class ServerError < ApiError
    include RetryAfter
  end

  # No response: DNS, connection refused or reset, TLS, or a dropped connection.
  class ConnectionError < Error; end

  # No response within the configured timeout.
  class TimeoutError < ConnectionError; end

  # A webhook delivery failed verification; `reason` says why (:missing_headers, :invalid_timestamp,
  # :timestamp_too_old, :timestamp_in_future, :invalid_signature, :invalid_secret, :invalid_payload).
  class WebhookVerificationError < Error
    attr_reader :reason

    def initialize(reason, message)
      @reason = reason
      super(message)
    end
  end

  ERROR_CLASSES = {
    400 => BadRequestError,
    401 => AuthenticationError,
    403 => PermissionDeniedError,
    404 => NotFoundError,
    409 => ConflictError,
    412 => PreconditionFailedError,
    422 => ValidationError,
    429 => RateLimitError,
  }.freeze

  # The error for a status, problem body and headers.
  def self.error_for(status, problem, headers)
    klass = ERROR_CLASSES.fetch(status) { status >= 500 ? ServerError : ApiError }
    klass.new(status, problem, headers)
  end
end
