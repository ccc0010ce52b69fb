# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))

require "minitest/autorun"
require "json"
require "securerandom"
require "messaging_platform"
require_relative "support/test_servers"

# The local runtime started by `npm run test:sdk:ruby` (sdks/conformance/with-runtime.mjs), and
# helpers shared by the tests: fresh tenants made with the SDK's own PlatformClient, phone numbers,
# polling for asynchronous work.
module TestSupport
  TestTenant = Struct.new(:tenant_id, :api_key, :admin_email, :admin_password, :admin_user_id, :client, keyword_init: true) do
    # A client with the tenant's admin API key and other options (e.g. through a proxy).
    def client_with(**options)
      MessagingPlatform::Client.new(api_key: api_key, tenant_id: tenant_id, base_url: TestSupport.base_url, **options)
    end
  end

  ADMIN_PASSWORD = "correct horse battery staple"

  module_function

  def runtime
    @runtime ||= begin
      file = ENV.fetch("TEST_RUNTIME_FILE") do
        raise "TEST_RUNTIME_FILE is not set: run the tests with `npm run test:sdk:ruby` from the repository root"
      end
      JSON.parse(File.read(file))
    end
  end

  def base_url
    runtime.fetch("url")
  end

  def platform_client(**options)
    MessagingPlatform::PlatformClient.new(token: runtime.fetch("platformToken"), base_url: base_url, **options)
  end

  # A fresh tenant (so test classes never see each other's data), created with the SDK.
  def new_tenant(plan = "pro")
    email = "sdk-rb-#{SecureRandom.hex(4)}@example.com"
    extra = plan == "enterprise" ? { rate_limit_per_hour: 5000 } : {}
    created = platform_client.tenants.create(name: "Ruby SDK Test Co", plan: plan, **extra,
                                             admin: { email: email, password: ADMIN_PASSWORD, name: "Sam Admin" })
    tenant = TestTenant.new(tenant_id: created.tenant.id, api_key: created.api_key.key, admin_email: email,
                            admin_password: ADMIN_PASSWORD, admin_user_id: created.admin_user.id)
    tenant.client = tenant.client_with
    tenant
  end

  # A unique E.164 number for a sandbox customer.
  def phone
    format("+49151%08d", SecureRandom.random_number(100_000_000))
  end

  # Calls the block until it returns something truthy (asynchronous work: receipts, deliveries), failing
  # after `timeout` seconds with the last value.
  def eventually(timeout: 15, interval: 0.1)
    deadline = monotonic + timeout
    loop do
      value = yield
      return value if value
      raise Minitest::Assertion, "condition not met within #{timeout} s" if monotonic > deadline

      sleep interval
    end
  end

  def monotonic
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # A date some days ahead, "YYYY-MM-DD".
  def day_ahead(days)
    (Time.now.utc + (days * 86_400)).strftime("%Y-%m-%d")
  end
end

# Base of the SDK's tests: TestSupport's helpers, and one tenant per test class, made on first use.
class SdkTest < Minitest::Test
  include TestSupport

  class << self
    def tenant
      @tenant ||= TestSupport.new_tenant
    end
  end

  def tenant
    self.class.tenant
  end

  def client
    tenant.client
  end
end
