# frozen_string_literal: true

require_relative "test_helper"

# The conformance suite shared by the official SDKs (sdks/conformance/scenarios.json): one test per
# scenario, named after its id, doing what its steps say against the running system.
class ConformanceTest < SdkTest
  RATE_LIMITED = { "type" => "https://docs.messaging.dev/problems/rate_limited", "title" => "Too Many Requests", "status" => 429,
                   "detail" => "injected", "code" => "rate_limited", "request_id" => "req-injected" }.freeze

  def test_conformance_create_tenant
    email = "owner-#{SecureRandom.hex(4)}@example.com"
    created = platform_client.tenants.create(name: "Conformance Dental", plan: "pro",
                                             admin: { email: email, password: ADMIN_PASSWORD, name: "Olivia Owner" })
    assert_equal "pro", created.tenant.plan
    assert_equal email, created.admin_user.email
    assert_equal "admin", created.admin_user.role
    assert_match(/\Ask_/, created.api_key.key)

    tenant_client = MessagingPlatform::Client.new(api_key: created.api_key.key, tenant_id: created.tenant.id, base_url: base_url)
    me = tenant_client.auth.me
    assert_instance_of MessagingPlatform::Models::ApiKeyCaller, me
    assert_equal created.tenant.id, me.tenant.id
    assert_equal "Conformance Dental", me.tenant.name
  end

  def test_conformance_sandbox_conversation
    from = phone
    inbound = client.channels.sandbox_inbound(from: from, name: "Maria", text: "Hi! Can I book a cleaning?")
    assert_instance_of MessagingPlatform::Models::InboundMessage, inbound

    conversation = client.conversations.get(inbound.conversation.id)
    assert_equal inbound.conversation.id, conversation.id
    assert_equal "open", conversation.status
    assert_equal from, conversation.customer.phone
    listed = conversation.messages.find { |message| message.id == inbound.message.id }
    refute_nil listed, "the inbound message is listed with the conversation"
    assert_equal "inbound", listed.direction
    assert_equal "Hi! Can I book a cleaning?", listed.text
  end

  def test_conformance_paginate_conversations
    fresh = new_tenant.client
    created = Array.new(5) { fresh.conversations.create(channel: "sandbox", customer: { phone: phone }).id }

    page = fresh.conversations.list(limit: 2).page
    assert_equal 2, page.data.size
    assert page.has_more?
    refute_nil page.next_cursor

    ids = fresh.conversations.list(limit: 2).map(&:id)
    assert_equal 5, ids.size
    assert_equal ids.uniq, ids, "each conversation once"
    assert_equal created.sort, ids.sort
  end

  def test_conformance_send_and_receipts
    proxy = FaultProxy.new
    via_proxy = tenant.client_with(base_url: proxy.url)
    conversation = via_proxy.channels.sandbox_inbound(from: phone, text: "Are you open tomorrow?").conversation

    sent = via_proxy.conversations.messages.create(conversation.id, text: "Yes, from 9 to 18.")
    assert_equal "queued", sent.status
    assert_equal 202, proxy.to("POST", "/conversations/").last.status

    read = eventually(timeout: 15) do
      message = client.conversations.messages.list(conversation.id, limit: 5).page.find { |m| m.id == sent.id }
      message if message&.status == "read"
    end
    refute_nil read.delivered_at
    refute_nil read.read_at
  ensure
    proxy&.close
  end

  def test_conformance_booking_conflict
    customer = client.channels.sandbox_inbound(from: phone, name: "Bea", text: "I want to book").conversation.customer
    day = day_ahead(1)
    booking = client.bookings.create(customer: { id: customer.id }, service: "Dental cleaning", resource_id: "chair-conformance",
                                     start_at: "#{day}T10:00:00Z", end_at: "#{day}T10:45:00Z", timezone: "UTC")
    assert_equal "confirmed", booking.status

    error = assert_raises(MessagingPlatform::ConflictError) do
      client.bookings.create(customer: { id: customer.id }, service: "Check-up", resource_id: "chair-conformance",
                             start_at: "#{day}T10:30:00Z", end_at: "#{day}T11:00:00Z", timezone: "UTC")
    end
    assert_equal 409, error.status
    assert_equal "booking_conflict", error.code
    assert_kind_of String, error.request_id
    refute_empty error.request_id
    # The problem names the booking in the way.
    assert_equal({ "id" => booking.id, "resource_id" => "chair-conformance", "start_at" => booking.start_at, "end_at" => booking.end_at }, error.problem["conflicting_booking"])
  end

  def test_conformance_stale_version
    conversation = client.conversations.create(channel: "sandbox", customer: { phone: phone }, priority: "normal")
    current = client.conversations.get(conversation.id)

    updated = client.conversations.update(conversation.id, status: "pending", if_match: current.version)
    assert_equal current.version + 1, updated.version
    assert_equal "pending", updated.status

    error = assert_raises(MessagingPlatform::ApiError) do
      client.conversations.update(conversation.id, priority: "urgent", if_match: current.version)
    end
    assert_instance_of MessagingPlatform::PreconditionFailedError, error
    assert_equal 412, error.status
    assert_equal "version_mismatch", error.code

    after = client.conversations.get(conversation.id)
    assert_equal updated.version, after.version
    assert_equal "normal", after.priority
    assert_equal "pending", after.status
  end

  def test_conformance_analyze
    analysis = client.ai.analyze(text: "I want to book an appointment for tomorrow at 3pm")
    assert_equal "book_appointment", analysis.intent.name
    assert_includes %w[negative neutral positive], analysis.sentiment.label
    assert_equal "en", analysis.language
    datetime = analysis.entities.find { |entity| entity.type == "datetime" }
    assert_instance_of MessagingPlatform::Models::DateTimeEntity, datetime
    assert_match(/\A\d{4}-\d{2}-\d{2}T15:00:00/, datetime.value)
  end

  def test_conformance_webhook_verify
    receiver = WebhookReceiver.new
    fresh = new_tenant
    endpoint = fresh.client.webhooks.create(url: receiver.url, events: ["conversation.*"])
    secret = endpoint.webhook_secret

    inbound = fresh.client.channels.sandbox_inbound(from: phone, text: "Hello webhooks")
    delivery = eventually(timeout: 15) do
      receiver.received.find { |r| r.body.include?('"type":"conversation.created"') && r.body.include?(inbound.conversation.id) }
    end

    event = MessagingPlatform::Webhook.verify(delivery.body, delivery.headers, secret)
    assert_instance_of MessagingPlatform::Models::ConversationCreatedEvent, event
    assert_equal "conversation.created", event.type
    assert_equal inbound.conversation.id, event.data.conversation.id
    assert_equal delivery.headers["webhook-id"], event.id
    assert_equal fresh.tenant_id, event.tenant_id

    altered = delivery.body.sub("conversation.created", "conversation.updated")
    refused = assert_raises(MessagingPlatform::WebhookVerificationError) { MessagingPlatform::Webhook.verify(altered, delivery.headers, secret) }
    assert_equal :invalid_signature, refused.reason
    wrong_secret = "whsec_#{[SecureRandom.bytes(32)].pack('m0')}"
    refused = assert_raises(MessagingPlatform::WebhookVerificationError) do
      MessagingPlatform::Webhook.verify(delivery.body, delivery.headers, wrong_secret)
    end
    assert_equal :invalid_signature, refused.reason
  ensure
    receiver&.close
  end

  def test_conformance_rate_limit_retry
    proxy = FaultProxy.new do |_request, index|
      index.zero? ? [:respond, 429, { "retry-after" => "1" }, RATE_LIMITED] : [:forward]
    end

    me = tenant.client_with(base_url: proxy.url).auth.me
    assert_equal tenant.tenant_id, me.tenant.id
    first, second = proxy.requests
    assert_equal 2, proxy.requests.size, "succeeded on its second attempt"
    assert_equal [429, 200], [first.status, second.status]
    assert_operator second.at - first.at, :>=, 1.0, "the retry waited for Retry-After"

    proxy.reset
    error = assert_raises(MessagingPlatform::RateLimitError) { tenant.client_with(base_url: proxy.url, max_retries: 0).auth.me }
    assert_equal 429, error.status
    assert_equal 1, error.retry_after
    assert_equal 1, proxy.requests.size
  ensure
    proxy&.close
  end
end
