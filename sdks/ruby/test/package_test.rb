# frozen_string_literal: true

require_relative "test_helper"
require "rubygems/package"
require "tmpdir"

# The gem is ready to publish, the README's examples are valid Ruby that names real methods, and the
# conformance suite has exactly one test per shared scenario.
class PackageTest < Minitest::Test
  ROOT = File.expand_path("..", __dir__)

  def spec
    @spec ||= Gem::Specification.load(File.join(ROOT, "messaging_platform.gemspec"))
  end

  def test_the_gemspec_is_complete_with_no_runtime_dependencies
    assert_equal "messaging_platform", spec.name
    assert_equal MessagingPlatform::VERSION, spec.version.to_s
    assert_equal "MIT", spec.license
    assert_equal Gem::Requirement.new(">= 3.1"), spec.required_ruby_version
    assert_empty spec.runtime_dependencies
    %w[lib/messaging_platform.rb lib/messaging_platform/models.rb README.md CHANGELOG.md LICENSE].each { |file| assert_includes spec.files, file }
    spec.files.each { |file| assert File.file?(File.join(ROOT, file)), file }
    spec.validate(false)
  end

  def test_the_gem_builds
    Dir.mktmpdir do |dir|
      Dir.chdir(ROOT) do
        built = Gem::DefaultUserInteraction.use_ui(Gem::SilentUI.new) { Gem::Package.build(spec, true) }
        File.rename(built, File.join(dir, built))
      end
      assert File.size(File.join(dir, "messaging_platform-#{MessagingPlatform::VERSION}.gem")).positive?
    end
  end

  def test_the_changelog_describes_this_version
    assert_match(/^## #{Regexp.escape(MessagingPlatform::VERSION)}$/, File.read(File.join(ROOT, "CHANGELOG.md")))
  end

  def test_readme_examples_compile_and_call_real_methods
    readme = File.read(File.join(ROOT, "README.md"))
    blocks = readme.scan(/```ruby\n(.*?)```/m).flatten
    assert_operator blocks.size, :>=, 15
    blocks.each_with_index do |code, index|
      RubyVM::InstructionSequence.compile(code, "README example #{index + 1}")
    rescue SyntaxError => e
      flunk "README example #{index + 1} is not valid Ruby: #{e.message}"
    end
    resources = { "conversations" => MessagingPlatform::Resources::Conversations, "messages" => MessagingPlatform::Resources::Messages,
                  "saved_replies" => MessagingPlatform::Resources::SavedReplies,
                  "bookings" => MessagingPlatform::Resources::Bookings, "schedules" => MessagingPlatform::Resources::Schedules,
                  "ai" => MessagingPlatform::Resources::Ai,
                  "channels" => MessagingPlatform::Resources::Channels, "events" => MessagingPlatform::Resources::Events,
                  "webhooks" => MessagingPlatform::Resources::Webhooks, "webhook_deliveries" => MessagingPlatform::Resources::WebhookDeliveries,
                  "api_keys" => MessagingPlatform::Resources::ApiKeys, "users" => MessagingPlatform::Resources::Users,
                  "auth" => MessagingPlatform::Resources::Auth, "tenants" => MessagingPlatform::Resources::Tenants }
    calls = blocks.join.scan(/\.(?=(#{resources.keys.join('|')})\.([a-z_]+))/)
    assert_equal resources.keys.sort, calls.map(&:first).uniq.sort, "one example per resource"
    calls.each do |resource, method|
      assert resources.fetch(resource).method_defined?(method), "README calls #{resource}.#{method}, which does not exist"
    end
  end

  def test_the_conformance_suite_has_one_test_per_scenario
    scenarios = JSON.parse(File.read(File.expand_path("../../conformance/scenarios.json", __dir__))).fetch("scenarios")
    expected = scenarios.map { |scenario| "test_conformance_#{scenario.fetch('id').tr('-', '_')}" }
    source = File.read(File.join(__dir__, "conformance_test.rb"))
    assert_equal expected.sort, source.scan(/def (test_\w+)/).flatten.sort
  end
end
