# frozen_string_literal: true

require_relative "lib/messaging_platform/version"

Gem::Specification.new do |spec|
  spec.name = "messaging_platform"
  spec.version = MessagingPlatform::VERSION
  spec.authors = ["Messaging Platform maintainers"]
  spec.summary = "Official Ruby SDK for the Messaging Platform API"
  spec.description = "Conversations and messages, bookings, AI functions, webhooks (with Standard Webhooks " \
                     "verification) and the operator API, with pagination, retries, idempotency keys and typed errors. " \
                     "No dependencies beyond Ruby's standard library."
  spec.homepage = "https://docs.messaging.dev"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"

  spec.metadata = {
    "homepage_uri" => spec.homepage,
    "documentation_uri" => "https://docs.messaging.dev/sdks/ruby",
    "changelog_uri" => "https://docs.messaging.dev/sdks/ruby/changelog",
    "rubygems_mfa_required" => "true",
  }

  spec.files = Dir[File.join(__dir__, "lib", "**", "*.rb")].map { |file| file.delete_prefix("#{__dir__}/") }.sort +
               %w[README.md CHANGELOG.md LICENSE]
  spec.require_paths = ["lib"]

  spec.add_development_dependency "minitest", ">= 5.15"
end
