# frozen_string_literal: true

require_relative "test_helper"

# Webhook endpoints and deliveries, and Webhook.verify on real deliveries from the running system to a
# local HTTPS receiver that the runtime trusts through the test CA. The steps build on each other, so
# they run in order in one test each.
class WebhooksTest < SdkTest
  def setup
    @receiver = WebhookReceiver.new
  end

  def teardown
    @receiver.close
  end

  def deliveries_of(event_id)
    @receiver.received.select { |r| r.body.include?(%("id":"#{event_id}")) }
  end

  def test_endpoints_real_deliveries_verification_and_secret_rotation
    fresh = new_tenant.client
    created = fresh.webhooks.create(url: @receiver.url, events: ["conversation.*"], description: "SDK test")
    assert_match(/\Awhsec_/, created.webhook_secret)
    assert_equal true, created.is_active
    got = fresh.webhooks.get(created.id)
    assert_equal @receiver.url, got.url
    refute got.key?(:webhook_secret)
    assert_equal [created.id], fresh.webhooks.list.map(&:id)
    updated = fresh.webhooks.update(created.id, events: ["conversation.*", "webhook.test"], description: nil, if_match: got.version)
    assert_equal ["conversation.*", "webhook.test"], updated.events
    assert_nil updated.description

    inbound = fresh.channels.sandbox_inbound(from: phone, name: "Hook", text: "Hello webhooks")
    delivery = eventually { @receiver.received.find { |r| r.body.include?(inbound.conversation.id) && r.body.include?('"conversation.created"') } }
    event = MessagingPlatform.verify_webhook(delivery.body, delivery.headers, created.webhook_secret)
    assert_instance_of MessagingPlatform::Models::ConversationCreatedEvent, event
    assert_equal inbound.conversation.id, event.data.conversation.id
    error = assert_raises(MessagingPlatform::WebhookVerificationError) do
      MessagingPlatform::Webhook.verify(delivery.body, delivery.headers, created.webhook_secret, tolerance: 0, now: Time.now + 5)
    end
    assert_equal :timestamp_too_old, error.reason

    before = fresh.webhooks.get(created.id)
    assert_raises(MessagingPlatform::PreconditionFailedError) { fresh.webhooks.rotate_secret(created.id, if_match: before.version + 1) }
    rotated = fresh.webhooks.rotate_secret(created.id, if_match: before.version)
    assert_equal before.version + 1, rotated.version
    refute_equal created.webhook_secret, rotated.webhook_secret
    refute_nil rotated.previous_secret_expires_at
    sleep 1.2 # rotation takes effect within a second
    test = fresh.webhooks.test(created.id)
    assert_match(/\Adlv_/, test.delivery_id)
    assert_equal "webhook.test", test.event.type
    delivery = eventually { deliveries_of(test.event.id).first }
    assert_equal 2, delivery.headers["webhook-signature"].split(" ").size
    with_new = MessagingPlatform::Webhook.verify(delivery.body, delivery.headers, rotated.webhook_secret)
    with_old = MessagingPlatform::Webhook.verify(delivery.body, delivery.headers, created.webhook_secret)
    assert_instance_of MessagingPlatform::Models::WebhookTestEvent, with_new
    assert_equal created.id, with_new.data.webhook_id
    assert_equal with_old, with_new

    current = fresh.webhooks.get(created.id)
    assert_raises(MessagingPlatform::PreconditionFailedError) { fresh.webhooks.delete(created.id, if_match: current.version - 1) }
    fresh.webhooks.delete(created.id, if_match: current.version)
    assert_raises(MessagingPlatform::NotFoundError) { fresh.webhooks.get(created.id) }
    assert_raises(MessagingPlatform::NotFoundError) { fresh.webhooks.delete(created.id) }
  end

  def test_failed_deliveries_detail_retry_recover_and_the_per_endpoint_list
    fresh = new_tenant.client
    endpoint = fresh.webhooks.create(url: @receiver.url, events: ["webhook.test"])
    since = Time.now - 1
    @receiver.behave(500, "down")
    first = fresh.webhooks.test(endpoint.id)
    second = fresh.webhooks.test(endpoint.id)
    # Six attempts, one second apart in the test runtime, then the deliveries are marked failed.
    eventually(timeout: 60, interval: 0.5) do
      failed = fresh.webhook_deliveries.list.to_a
      [first.delivery_id, second.delivery_id].all? { |id| failed.any? { |d| d.id == id && d.status == "failed" } }
    end
    narrowed = fresh.webhook_deliveries.list(webhook_id: endpoint.id, event_type: "webhook.test", since: since, limit: 1)
    assert_equal [first.delivery_id, second.delivery_id].sort, narrowed.map(&:id).sort
    # Each filter can exclude them: another endpoint, another type, events before `since`.
    assert_empty fresh.webhook_deliveries.list(webhook_id: "whk_01JDQ8ZK3M4N5P6Q7R8S9T0V1W").to_a
    assert_empty fresh.webhook_deliveries.list(event_type: "booking.created").to_a
    assert_empty fresh.webhook_deliveries.list(until: since).to_a

    detail = fresh.webhook_deliveries.get(first.delivery_id)
    assert_equal "failed", detail.status
    assert_equal 6, detail.attempts.size
    assert_equal 500, detail.attempts.first.status_code
    assert_equal first.event.id, detail.payload.id

    @receiver.behave(204, "")
    replay = fresh.webhook_deliveries.retry(first.delivery_id)
    assert_equal({ "delivery_id" => first.delivery_id, "status" => "pending", "cycle" => 2 }, replay.to_h)
    eventually(timeout: 30) { fresh.webhook_deliveries.get(first.delivery_id).status == "succeeded" }

    recovered = fresh.webhooks.recover(endpoint.id, since: since)
    assert_equal 1, recovered.replayed
    assert_equal false, recovered.has_more
    eventually(timeout: 30) { fresh.webhook_deliveries.get(second.delivery_id).status == "succeeded" }

    succeeded = fresh.webhooks.deliveries(endpoint.id, status: "succeeded").map(&:id)
    assert_includes succeeded, first.delivery_id
    assert_includes succeeded, second.delivery_id
    assert_empty fresh.webhook_deliveries.list(status: "failed").to_a
  end
end
