# frozen_string_literal: true

require_relative "test_helper"
require "base64"

# The parts that need no API: webhook signatures, backoff, URLs, Retry-After, ETags, error classes.
class WebhookVerifyTest < Minitest::Test
  SECRET = "whsec_#{Base64.strict_encode64('0123456789abcdef0123456789abcdef')}".freeze
  OTHER = "whsec_#{Base64.strict_encode64('fedcba9876543210fedcba9876543210')}".freeze
  BODY = '{"id":"evt_1","type":"webhook.test","created_at":"2026-11-21T22:22:45.841Z","tenant_id":"t","api_version":"v1",' \
         '"data":{"webhook_id":"whk_1"}}'

  def verify(body = BODY, headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1"), secret = SECRET, **options)
    MessagingPlatform::Webhook.verify(body, headers, secret, **options)
  end

  def reason
    assert_raises(MessagingPlatform::WebhookVerificationError) { yield }.reason
  end

  def test_returns_the_parsed_event_for_a_valid_signature
    event = verify
    assert_instance_of MessagingPlatform::Models::WebhookTestEvent, event
    assert_equal "whk_1", event.data.webhook_id
    assert_equal "evt_1", verify(BODY.b).id
  end

  def test_a_parsed_body_is_an_invalid_payload_not_a_bad_signature
    assert_equal :invalid_payload, reason { verify(JSON.parse(BODY)) }
    assert_equal :invalid_payload, reason { verify(nil) }
  end

  def test_reads_headers_case_insensitively_from_a_hash_or_a_rack_env
    headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1")
    upper = headers.to_h { |name, value| [name.upcase, value] }
    rack = headers.to_h { |name, value| ["HTTP_#{name.upcase.tr('-', '_')}", value] }
    symbols = headers.to_h { |name, value| [name.to_sym, [value]] }
    [upper, rack, symbols].each { |h| assert_equal "evt_1", verify(BODY, h).id }
  end

  def test_accepts_any_of_several_signatures_with_either_secret
    old = MessagingPlatform::Webhook.sign(BODY, OTHER, id: "msg_1")
    new = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1", timestamp: old["webhook-timestamp"].to_i)
    both = new.merge("webhook-signature" => "#{old['webhook-signature']} #{new['webhook-signature']}")
    assert_equal "evt_1", verify(BODY, both, SECRET).id
    assert_equal "evt_1", verify(BODY, both, OTHER).id
    assert_equal "evt_1", verify(BODY, new, [OTHER, SECRET]).id
  end

  def test_rejects_a_wrong_secret_a_changed_body_id_or_timestamp_and_unknown_versions
    headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1")
    assert_equal :invalid_signature, reason { verify(BODY, headers, OTHER) }
    assert_equal :invalid_signature, reason { verify(BODY.sub("whk_1", "whk_2"), headers) }
    assert_equal :invalid_signature, reason { verify(BODY, headers.merge("webhook-id" => "msg_2")) }
    assert_equal :invalid_signature, reason { verify(BODY, headers.merge("webhook-timestamp" => (headers["webhook-timestamp"].to_i - 1).to_s)) }
    v2 = headers.merge("webhook-signature" => headers["webhook-signature"].sub("v1,", "v2,"))
    assert_equal :invalid_signature, reason { verify(BODY, v2) }
  end

  def test_rejects_timestamps_beyond_the_tolerance_and_accepts_them_within_it
    headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1", timestamp: Time.now.to_i - 301)
    assert_equal :timestamp_too_old, reason { verify(BODY, headers) }
    assert_equal "evt_1", verify(BODY, headers, tolerance: 400).id
    future = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1", timestamp: Time.now.to_i + 301)
    assert_equal :timestamp_in_future, reason { verify(BODY, future) }
    assert_equal "evt_1", verify(BODY, future, now: Time.now + 300).id
  end

  def test_rejects_missing_headers_a_bad_timestamp_a_bad_secret_and_a_body_that_is_not_json
    headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1")
    assert_equal :missing_headers, reason { verify(BODY, headers.reject { |name, _| name == "webhook-signature" }) }
    assert_equal :invalid_timestamp, reason { verify(BODY, headers.merge("webhook-timestamp" => "soon")) }
    assert_equal :invalid_secret, reason { verify(BODY, headers, "") }
    assert_equal :invalid_secret, reason { verify(BODY, headers, "whsec_***") }
    assert_equal :invalid_secret, reason { verify(BODY, headers, []) }
    not_json = MessagingPlatform::Webhook.sign("not json", SECRET, id: "msg_1")
    assert_equal :invalid_payload, reason { verify("not json", not_json) }
  end

  def test_sign_follows_the_standard_webhooks_scheme
    headers = MessagingPlatform::Webhook.sign(BODY, SECRET, id: "msg_1", timestamp: 1_700_000_000)
    key = Base64.strict_decode64(SECRET.delete_prefix("whsec_"))
    expected = Base64.strict_encode64(OpenSSL::HMAC.digest("SHA256", key, "msg_1.1700000000.#{BODY}"))
    assert_equal({ "webhook-id" => "msg_1", "webhook-timestamp" => "1700000000", "webhook-signature" => "v1,#{expected}" }, headers)
  end
end

class TransportUnitTest < Minitest::Test
  Transport = MessagingPlatform::Transport

  def test_backs_off_exponentially_with_jitter_capped_at_8_seconds
    low = Struct.new(:value) { def rand = value }.new(0.0)
    high = Struct.new(:value) { def rand = value }.new(1.0)
    assert_equal [0.25, 0.5, 1.0, 2.0, 4.0, 4.0], (0..5).map { |n| Transport.backoff_delay(n, random: low) }
    assert_equal [0.5, 1.0, 2.0, 4.0, 8.0, 8.0], (0..5).map { |n| Transport.backoff_delay(n, random: high) }
    delays = Array.new(50) { Transport.backoff_delay(2) }
    assert(delays.all? { |d| d >= 1.0 && d <= 2.0 })
    assert_operator delays.uniq.size, :>, 1, "jitter"
  end

  def test_adds_api_v1_to_the_base_url_unless_a_version_is_there
    assert_equal "http://127.0.0.1:3000/api/v1", Transport.api_base("http://127.0.0.1:3000")
    assert_equal "https://api.example.com/api/v1", Transport.api_base("https://api.example.com/")
    assert_equal "https://api.example.com/api/v1", Transport.api_base("https://api.example.com/api/v1/")
    assert_equal "https://example.com/messaging/v1", Transport.api_base("https://example.com/messaging/v1")
    assert_raises(MessagingPlatform::Error) { Transport.api_base("api.example.com") }
  end

  def test_parses_retry_after_as_seconds_or_an_http_date
    assert_equal 1, MessagingPlatform::RetryAfter.parse("1")
    assert_in_delta 2.5, MessagingPlatform::RetryAfter.parse("2.5")
    now = Time.now
    assert_in_delta 30, MessagingPlatform::RetryAfter.parse((now + 30).httpdate, now), 1
    assert_nil MessagingPlatform::RetryAfter.parse("soon")
    assert_nil MessagingPlatform::RetryAfter.parse(nil)
  end

  def test_quotes_versions_as_etags_for_if_match
    assert_equal '"3"', Transport.etag_of(3)
    assert_equal '"3"', Transport.etag_of("3")
    assert_equal '"3"', Transport.etag_of('"3"')
    assert_equal 'W/"3"', Transport.etag_of('W/"3"')
    assert_equal "*", Transport.etag_of("*")
  end

  def test_maps_statuses_to_error_classes_with_the_problem_fields
    problem = { "type" => "https://docs.messaging.dev/problems/x", "title" => "T", "status" => 422, "detail" => "d", "code" => "c",
                "request_id" => "r", "errors" => [{ "path" => "a.b", "message" => "m" }] }
    { 400 => MessagingPlatform::BadRequestError, 401 => MessagingPlatform::AuthenticationError,
      403 => MessagingPlatform::PermissionDeniedError, 404 => MessagingPlatform::NotFoundError, 409 => MessagingPlatform::ConflictError,
      412 => MessagingPlatform::PreconditionFailedError, 422 => MessagingPlatform::ValidationError,
      429 => MessagingPlatform::RateLimitError, 418 => MessagingPlatform::ApiError, 500 => MessagingPlatform::ServerError,
      503 => MessagingPlatform::ServerError }.each do |status, klass|
      error = MessagingPlatform.error_for(status, problem, { "retry-after" => "7" })
      assert_instance_of klass, error
      assert_equal [status, "c", "d", "r"], [error.status, error.code, error.detail, error.request_id]
      assert_equal "a.b", error.errors.first.path
      assert_equal "#{status} c: d", error.message
    end
    assert_equal 7, MessagingPlatform.error_for(429, problem, { "retry-after" => "7" }).retry_after
    bare = MessagingPlatform.error_for(502, {}, { "x-request-id" => "from-header" })
    assert_equal ["http_502", "from-header", []], [bare.code, bare.request_id, bare.errors]
  end

  def test_json_bodies_and_queries_take_times_as_iso_8601
    at = Time.utc(2026, 11, 21, 10, 0, 0)
    assert_equal({ "since" => "2026-11-21T10:00:00.000Z", "tags" => ["a"], "n" => nil }, Transport.jsonable({ since: at, tags: [:a], n: nil }))
    transport = Transport.new(base_url: "http://127.0.0.1:1")
    assert_equal "/api/v1/events?since=2026-11-21T10%3A00%3A00.000Z&limit=5", transport.url("/events", { since: at, limit: 5, cursor: nil }).request_uri
  end
end
