# frozen_string_literal: true

require_relative "test_helper"

# auth.me and the rate limit, API keys, users, tenants (operator API), credential errors and the
# low-level request method.
class AuthMeTest < SdkTest
  def test_names_the_api_key_its_role_and_tenant
    me = client.auth.me
    assert_equal "api_key", me.kind
    assert_equal "admin", me.role
    assert_match(/\Akey_/, me.key_id)
    assert_equal tenant.tenant_id, me.tenant.id
  end

  def test_exposes_the_rate_limit_of_the_last_response
    fresh = tenant.client_with
    assert_nil fresh.rate_limit
    fresh.auth.me
    first = fresh.rate_limit
    assert_operator first.limit, :>, 0
    fresh.auth.me
    assert_equal first.remaining - 1, fresh.rate_limit.remaining
    assert_operator fresh.rate_limit.reset_at, :>, Time.now
  end
end

class ApiKeysTest < SdkTest
  def test_create_shows_the_key_once_list_shows_the_prefix_agents_may_not_administer_revoke_ends_it
    created = client.api_keys.create(name: "Backend integration", role: "agent")
    assert_match(/\Ask_/, created.key)
    assert_equal "agent", created.role
    listed = client.api_keys.list.find { |k| k.id == created.id }
    assert created.key.start_with?(listed.prefix)
    refute listed.key?(:key)

    agent = tenant.client_with(api_key: created.key)
    assert_equal "agent", agent.auth.me.role
    assert_raises(MessagingPlatform::PermissionDeniedError) { agent.api_keys.list.page }

    assert_nil client.api_keys.revoke(created.id)
    error = assert_raises(MessagingPlatform::AuthenticationError) { agent.auth.me }
    assert_equal 401, error.status
  end
end

class UsersTest < SdkTest
  def test_create_get_list_update_with_if_match
    email = "agent-#{SecureRandom.hex(4)}@example.com"
    user = client.users.create(email: email, password: "a long agent passphrase", name: "Alex Agent")
    assert_equal "agent", user.role
    assert_equal email, user.email
    assert_equal user, client.users.get(user.id)
    ids = client.users.list.map(&:id)
    assert_includes ids, user.id
    assert_includes ids, tenant.admin_user_id

    updated = client.users.update(user.id, status: "disabled", if_match: user.version)
    assert_equal "disabled", updated.status
    assert_raises(MessagingPlatform::PreconditionFailedError) { client.users.update(user.id, name: "x", if_match: user.version) }
  end
end

class TenantsTest < SdkTest
  def test_create_get_list_across_pages_update_with_if_match
    platform = platform_client
    made = Array.new(3) do |i|
      platform.tenants.create(name: "Page Co #{i}", plan: "free",
                              admin: { email: "p#{i}-#{SecureRandom.hex(4)}@example.com", password: ADMIN_PASSWORD }).tenant
    end
    got = platform.tenants.get(made.first.id)
    assert_equal "Page Co 0", got.name
    assert_equal "free", got.plan

    first_page = platform.tenants.list(limit: 2).page
    assert_equal 2, first_page.size
    all_ids = platform.tenants.list(limit: 2).map(&:id)
    made.each { |t| assert_includes all_ids, t.id }
    assert_equal all_ids.uniq, all_ids

    upgraded = platform.tenants.update(got.id, plan: "pro", if_match: got.version)
    assert_equal "pro", upgraded.plan
    assert_raises(MessagingPlatform::PreconditionFailedError) { platform.tenants.update(got.id, name: "x", if_match: got.version) }
    assert_equal "Page Co 0", platform.tenants.get(got.id).name
  end
end

class CredentialErrorsTest < SdkTest
  def test_a_wrong_platform_token_is_an_authentication_error
    wrong = MessagingPlatform::PlatformClient.new(token: "pt_wrong", base_url: base_url)
    assert_raises(MessagingPlatform::AuthenticationError) { wrong.tenants.list.page }
  end

  def test_a_wrong_api_key_is_an_authentication_error_and_another_tenant_a_permission_error
    assert_raises(MessagingPlatform::AuthenticationError) { tenant.client_with(api_key: "sk_#{'x' * 40}").auth.me }
    other = new_tenant
    error = assert_raises(MessagingPlatform::PermissionDeniedError) { tenant.client_with(tenant_id: other.tenant_id).auth.me }
    assert_equal 403, error.status
    assert_same MessagingPlatform::PermissionError, MessagingPlatform::PermissionDeniedError
  end

  def test_a_malformed_cursor_or_tenant_id_is_a_bad_request_with_the_problem_fields
    error = assert_raises(MessagingPlatform::BadRequestError) { client.conversations.list(cursor: "not-a-cursor").page }
    assert_equal 400, error.status
    assert_equal "invalid_cursor", error.code
    assert_match(%r{\Ahttps?://}, error.type)
    refute_empty error.detail
    refute_nil error.request_id
    assert_equal error.code, error.problem["code"]
    assert_equal error.request_id, error.headers["x-request-id"]
    assert_raises(MessagingPlatform::BadRequestError) { tenant.client_with(tenant_id: "not-a-uuid").auth.me }
  end

  def test_the_client_checks_its_options
    assert_raises(MessagingPlatform::Error) { MessagingPlatform::Client.new(tenant_id: "t", base_url: base_url) }
    assert_raises(MessagingPlatform::Error) { MessagingPlatform::Client.new(api_key: "sk_x", base_url: base_url) }
    assert_raises(MessagingPlatform::Error) { MessagingPlatform::Client.new(api_key: "sk_x", tenant_id: "t", base_url: "nope") }
    assert_raises(MessagingPlatform::Error) { tenant.client_with(max_retries: -1) }
    assert_raises(ArgumentError) { tenant.client_with(retries: 1) }
    assert_raises(MessagingPlatform::Error) { MessagingPlatform::PlatformClient.new(token: "", base_url: base_url) }
    assert_raises(ArgumentError) { client.auth.me(request_options: { retry: 1 }) }
  end
end

class RawRequestTest < SdkTest
  def test_the_low_level_request_method_reaches_any_endpoint_with_the_same_credentials_and_errors
    body = client.request(:get, "/events", query: { limit: 1 })
    assert_kind_of Array, body["data"]
    assert_equal 1, body["pagination"]["limit"]
    created = client.request(:post, "/conversations", body: { channel: "sandbox", customer: { phone: phone } })
    assert_match(/\Aconv_/, created["id"])
    assert_raises(MessagingPlatform::NotFoundError) { client.request(:get, "/conversations/conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W") }
    assert_kind_of Array, platform_client.request(:get, "/platform/tenants", query: { limit: 1 })["data"]
  end

  def test_the_openapi_document_is_the_contract_the_models_were_generated_from
    document = client.openapi_document
    assert_equal "3.1.0", document["openapi"]
    local = JSON.parse(File.read(File.expand_path("../../../openapi.json", __dir__)))
    assert_equal local["paths"].keys.sort, document["paths"].keys.sort
  end
end
