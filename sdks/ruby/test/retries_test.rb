# frozen_string_literal: true

require_relative "test_helper"

# Retries with backoff on 429, 503 and other 5xx honouring Retry-After, timeouts and network errors,
# never on other 4xx; the Idempotency-Key of POSTs across retries. Faults come from a proxy in front of
# the runtime.
class RetriesTest < SdkTest
  def setup
    @proxy = FaultProxy.new
  end

  def teardown
    @proxy.close
  end

  def problem(status, code)
    { "type" => "https://docs.messaging.dev/problems/#{code}", "title" => "x", "status" => status, "detail" => "injected #{code}",
      "code" => code, "request_id" => "req-injected" }
  end

  # Answers the first `count` requests with `status`, then forwards.
  def fail_first(count, status, headers = {}, code = "injected")
    @proxy.decide { |_request, index| index < count ? [:respond, status, headers, problem(status, code)] : [:forward] }
  end

  def via_proxy(**options)
    tenant.client_with(base_url: @proxy.url, **options)
  end

  def elapsed
    started = monotonic
    yield
    monotonic - started
  end

  def test_429_with_retry_after_waits_that_long_then_succeeds
    fail_first(1, 429, { "retry-after" => "1" }, "rate_limited")
    me = nil
    took = elapsed { me = via_proxy.auth.me }
    assert_equal tenant.tenant_id, me.tenant.id
    assert_equal [429, 200], @proxy.requests.map(&:status)
    assert_operator took, :>=, 1.0
  end

  def test_503_with_retry_after_and_500s_without_are_retried_up_to_max_retries
    fail_first(1, 503, { "retry-after" => "0" }, "dependency_throttled")
    assert_equal "api_key", via_proxy.auth.me.kind
    assert_equal [503, 200], @proxy.requests.map(&:status)

    @proxy.reset
    fail_first(3, 500)
    assert_equal "api_key", via_proxy(max_retries: 3).auth.me.kind
    assert_equal [500, 500, 500, 200], @proxy.requests.map(&:status)
  end

  def test_gives_up_after_max_retries_with_the_last_error_and_its_problem_fields
    fail_first(10, 502, {}, "bad_gateway")
    error = assert_raises(MessagingPlatform::ServerError) { via_proxy(max_retries: 1).auth.me }
    assert_equal 502, error.status
    assert_equal "bad_gateway", error.code
    assert_equal "req-injected", error.request_id
    assert_equal 2, @proxy.requests.size

    @proxy.reset
    assert_raises(MessagingPlatform::ServerError) { via_proxy.auth.me(request_options: { max_retries: 0 }) }
    assert_equal 1, @proxy.requests.size
  end

  def test_never_retries_other_4xx
    fail_first(1, 409, {}, "conflict")
    assert_raises(MessagingPlatform::ConflictError) { via_proxy.auth.me }
    @proxy.reset
    fail_first(1, 422, {}, "validation_failed")
    assert_raises(MessagingPlatform::ValidationError) { via_proxy.auth.me }
    @proxy.reset
    fail_first(1, 404, {}, "not_found")
    assert_raises(MessagingPlatform::NotFoundError) { via_proxy.auth.me }
    assert_equal 1, @proxy.requests.size
  end

  def test_a_retry_after_longer_than_max_retry_delay_is_not_waited_out
    fail_first(1, 429, { "retry-after" => "3600" }, "rate_limited")
    error = assert_raises(MessagingPlatform::RateLimitError) { via_proxy(max_retry_delay: 5).auth.me }
    assert_equal 3600, error.retry_after
    assert_equal 1, @proxy.requests.size
  end

  def test_slow_attempts_time_out_and_are_retried
    @proxy.decide { |_request, index| index.zero? ? [:delay, 1.5] : [:forward] }
    assert_equal "api_key", via_proxy(timeout: 0.5).auth.me.kind
    assert_equal 2, @proxy.requests.size

    @proxy.reset
    @proxy.decide { |_request, _index| [:delay, 1.5] }
    assert_raises(MessagingPlatform::TimeoutError) { via_proxy(timeout: 0.3, max_retries: 1).auth.me }
    assert_equal 2, @proxy.requests.size
  end

  def test_network_errors_are_connection_errors_after_the_retries
    closed = TCPServer.new("127.0.0.1", 0)
    port = closed.addr[1]
    closed.close
    dead = tenant.client_with(base_url: "http://127.0.0.1:#{port}", max_retries: 1)
    error = assert_raises(MessagingPlatform::ConnectionError) { dead.auth.me }
    assert_match(/ECONNREFUSED|refused/i, error.message)
  end

  def test_every_post_carries_a_fresh_idempotency_key_and_get_patch_delete_none
    c = via_proxy
    first = c.conversations.create(channel: "sandbox", customer: { phone: phone })
    c.conversations.messages.create(first.id, text: "hello")
    c.conversations.get(first.id)
    c.conversations.update(first.id, priority: "low")
    hook = c.webhooks.create(url: "https://localhost:9999/hook", events: ["booking.*"])
    c.webhooks.delete(hook.id)
    keys = @proxy.requests.to_h { |r| ["#{r.method} #{r.path.delete_prefix('/api/v1').sub(/conv_\w+|whk_\w+/, ':id')}", r.headers["idempotency-key"]] }
    posts = keys.select { |name, _| name.start_with?("POST") }.values
    assert_equal 3, posts.size
    posts.each { |key| assert_match(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, key) }
    assert_equal posts.uniq, posts
    keys.reject { |name, _| name.start_with?("POST") }.each_value { |key| assert_nil key }
  end

  def test_retries_of_one_call_reuse_its_key
    fail_first(2, 503, { "retry-after" => "0" })
    via_proxy.conversations.create(channel: "sandbox", customer: { phone: phone })
    keys = @proxy.requests.map { |r| r.headers["idempotency-key"] }
    assert_equal 3, keys.size
    assert_equal 1, keys.uniq.size
  end

  def test_a_caller_chosen_key_is_sent_and_repeating_the_call_replays_the_first_response
    key = "order-#{SecureRandom.hex(6)}"
    customer = { phone: phone }
    first = via_proxy.conversations.create(channel: "sandbox", customer: customer, idempotency_key: key)
    again = via_proxy.conversations.create(channel: "sandbox", customer: customer, request_options: { idempotency_key: key })
    assert_equal first, again
    assert_equal [key, key], @proxy.requests.map { |r| r.headers["idempotency-key"] }
    assert_equal "true", @proxy.requests.last.response_headers["idempotent-replayed"]
  end

  def test_a_post_whose_response_was_lost_is_retried_with_its_key_and_acts_once
    conversation = client.conversations.create(channel: "sandbox", customer: { phone: phone })
    @proxy.decide { |_request, index| index.zero? ? [:drop] : [:forward] }
    sent = via_proxy.conversations.messages.create(conversation.id, text: "exactly once")
    first, second = @proxy.requests
    assert_equal 202, first.status, "the first attempt did act"
    assert_equal first.headers["idempotency-key"], second.headers["idempotency-key"]
    assert_equal "true", second.response_headers["idempotent-replayed"]
    copies = client.conversations.messages.list(conversation.id).select { |m| m.text == "exactly once" }
    assert_equal [sent.id], copies.map(&:id)
  end

  def test_a_post_meeting_its_first_attempt_still_running_waits_and_gets_the_first_response
    conversation = client.conversations.create(channel: "sandbox", customer: { phone: phone })
    in_progress = [:respond, 409, { "retry-after" => "0" }, problem(409, "idempotency_request_in_progress")]
    @proxy.decide { |_request, index| [[:drop], in_progress][index] || [:forward] }
    sent = via_proxy.conversations.messages.create(conversation.id, text: "once, after a wait")
    assert_equal 3, @proxy.requests.size
    assert_equal 1, @proxy.requests.map { |r| r.headers["idempotency-key"] }.uniq.size
    assert_equal "true", @proxy.requests.last.response_headers["idempotent-replayed"]
    copies = client.conversations.messages.list(conversation.id).select { |m| m.text == "once, after a wait" }
    assert_equal [sent.id], copies.map(&:id)
  end

  def test_a_conditional_update_whose_response_was_lost_is_not_retried
    conversation = client.conversations.create(channel: "sandbox", customer: { phone: phone })
    @proxy.decide { |_request, index| index.zero? ? [:drop] : [:forward] }
    # It may have been applied: a retry would answer 412 for this very change, so the outcome is left unknown.
    assert_raises(MessagingPlatform::ConnectionError) do
      via_proxy.conversations.update(conversation.id, priority: "urgent", if_match: conversation.version)
    end
    assert_equal 1, @proxy.requests.size
    applied = client.conversations.get(conversation.id)
    assert_equal ["urgent", conversation.version + 1], [applied.priority, applied.version]
  end

  def test_a_lost_get_response_is_simply_retried
    @proxy.decide { |_request, index| index.zero? ? [:drop] : [:forward] }
    assert_equal "api_key", via_proxy.auth.me.kind
    assert_equal 2, @proxy.requests.size
  end
end
