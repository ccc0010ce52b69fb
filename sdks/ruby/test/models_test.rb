# frozen_string_literal: true

require_relative "test_helper"
require "tmpdir"
require_relative "../scripts/generate_models"

# The models follow openapi.json: models.rb must be what scripts/generate_models.rb makes from it now,
# and every operation of the API must be reachable through a resource method.
class ModelsTest < Minitest::Test
  OPENAPI = MessagingPlatform::ModelGenerator::DEFAULT_OPENAPI
  LIB = File.expand_path("../lib/messaging_platform", __dir__)
  # Operations for Meta's and Stripe's servers (webhooks) and the customer's browser (the sandbox checkout).
  NOT_FOR_CLIENTS = %w[verifyWhatsAppWebhook receiveWhatsAppWebhook receiveStripeWebhook paymentCheckoutPage
                       paymentCheckoutPay paymentCheckoutDecline].freeze

  def test_models_rb_matches_a_fresh_generation_from_openapi_json
    difference = MessagingPlatform::ModelGenerator.new.difference
    assert_nil difference, "lib/messaging_platform/models.rb is out of date (#{difference}): run `ruby scripts/generate_models.rb` in sdks/ruby"
  end

  def test_the_check_fails_when_a_schema_changes
    document = JSON.parse(File.read(OPENAPI))
    document["components"]["schemas"]["Conversation"]["properties"]["mood"] = { "type" => "string" }
    Dir.mktmpdir do |dir|
      changed = File.join(dir, "openapi.json")
      File.write(changed, JSON.generate(document))
      difference = MessagingPlatform::ModelGenerator.new(changed).difference
      refute_nil difference
      assert_match(/property :mood, :string/, difference)
      assert_match(/property :mood, :string\n/, MessagingPlatform::ModelGenerator.new(changed).source)
    end
  end

  def test_the_command_line_check_passes
    output = IO.popen([RbConfig.ruby, File.expand_path("../scripts/generate_models.rb", __dir__), "--check"], err: %i[child out], &:read)
    assert $?.success?, output
    assert_match(/matches/, output)
  end

  def test_every_operation_has_a_resource_method
    document = JSON.parse(File.read(OPENAPI))
    # HEAD is served for GET's clients (caches, probes): no SDK calls it.
    operation_ids = document["paths"].values.flat_map { |item| item.filter_map { |method, op| op["operationId"] if method != "head" && op.is_a?(Hash) } }
    assert_equal operation_ids.sort, MessagingPlatform::OPERATIONS.keys.sort
    sources = Dir[File.join(LIB, "{client.rb,credentials.rb,resources/*.rb}")].map { |file| File.read(file) }.join
    missing = (operation_ids - NOT_FOR_CLIENTS).reject { |id| sources.include?(%("#{id}")) }
    assert_empty missing, "operations without a resource method"
  end

  def test_models_read_properties_nested_objects_unions_and_unknown_members
    conversation = MessagingPlatform::Models::ConversationWithMessages.new(
      "id" => "conv_1", "customer" => { "id" => "cus_1", "phone" => "+49" }, "handoff" => { "reason" => "complaint" },
      "messages" => [{ "id" => "msg_1", "analysis" => { "sentiment" => { "label" => "neutral" } } }], "mood" => "calm"
    )
    assert_equal "cus_1", conversation.customer.id
    assert_instance_of MessagingPlatform::Models::CustomerRef, conversation.customer
    assert_instance_of MessagingPlatform::Models::ConversationWithMessages::Handoff, conversation.handoff
    assert_equal "msg_1", conversation.messages.first.id
    assert_equal "calm", conversation.mood
    assert_equal "calm", conversation[:mood]
    assert_nil conversation.status
    assert_equal "+49", conversation.dig(:customer, :phone)
    assert_equal conversation.to_h, JSON.parse(conversation.to_json)
    assert_raises(NoMethodError) { conversation.nothing_like_this }
    assert_includes MessagingPlatform::Models::Conversation.required_properties, "version"

    me = MessagingPlatform::Models::Me.build("kind" => "user", "user_id" => "usr_1")
    assert_instance_of MessagingPlatform::Models::UserCaller, me
    future = MessagingPlatform::Models::Event.build("type" => "invoice.paid", "id" => "evt_9")
    assert_instance_of MessagingPlatform::Model, future
    assert_equal "evt_9", future.id
    assert_equal 25, MessagingPlatform::Models::Event.variants.size
  end
end
