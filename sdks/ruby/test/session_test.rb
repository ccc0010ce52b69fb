# frozen_string_literal: true

require_relative "test_helper"

# Session mode: login, refresh before expiry, one refresh after a 401, one refresh shared by concurrent
# requests (a second refresh with the same token would revoke the session), saved sessions, logout.
class SessionTest < SdkTest
  def setup
    @proxy = FaultProxy.new
  end

  def teardown
    @proxy.close
  end

  def login(**options)
    MessagingPlatform::Client.login(email: tenant.admin_email, password: tenant.admin_password, base_url: base_url, **options)
  end

  # A fresh login's tokens as a Hash, straight from the runtime.
  def fresh_tokens
    login.tokens.to_h
  end

  # The access token with its signature broken: the API answers 401.
  def broken(token)
    "#{token[0...-4]}#{token.end_with?('AAAA') ? 'BBBB' : 'AAAA'}"
  end

  def refreshes
    @proxy.to("POST", "/auth/refresh").size
  end

  def test_login_with_and_without_a_tenant_id_gives_a_user_session_and_on_session_change_hears_it
    heard = []
    session = login(on_session_change: ->(tokens) { heard << tokens })
    me = session.auth.me
    assert_instance_of MessagingPlatform::Models::UserCaller, me
    assert_equal "admin", me.role
    assert_equal tenant.tenant_id, me.tenant.id
    assert_equal [session.tokens], heard
    assert_equal tenant.admin_email, session.tokens.user.email
    assert session.session?

    scoped = login(tenant_id: tenant.tenant_id)
    assert_equal "user", scoped.auth.me.kind
    assert_kind_of Array, scoped.conversations.list.page.data
  end

  def test_a_wrong_password_is_an_authentication_error
    error = assert_raises(MessagingPlatform::AuthenticationError) do
      MessagingPlatform::Client.login(email: tenant.admin_email, password: "not the password", base_url: base_url)
    end
    assert_equal "invalid_credentials", error.code
  end

  def test_refreshes_before_the_access_token_expires
    tokens = fresh_tokens
    heard = []
    soon = tokens.merge("expires_at" => (Time.now.utc + 30).iso8601(3))
    session = MessagingPlatform::Client.from_session(soon, base_url: @proxy.url, on_session_change: ->(t) { heard << t })
    assert_equal "user", session.auth.me.kind
    assert_equal ["POST /auth/refresh", "GET /auth/me"], @proxy.requests.map { |r| "#{r.method} #{r.path.delete_prefix('/api/v1')}" }
    assert_nil @proxy.requests.first.headers["idempotency-key"]
    refute_equal tokens["access_token"], session.tokens.access_token
    refute_equal tokens["refresh_token"], session.tokens.refresh_token
    assert_equal [session.tokens], heard
    # The new token is good for 30 minutes: no more refreshes.
    session.auth.me
    assert_equal 1, refreshes
  end

  def test_refreshes_once_after_a_401_and_repeats_the_request
    tokens = fresh_tokens
    session = MessagingPlatform::Client.from_session(tokens.merge("access_token" => broken(tokens["access_token"])), base_url: @proxy.url)
    assert_equal "user", session.auth.me.kind
    assert_equal ["GET /auth/me 401", "POST /auth/refresh 200", "GET /auth/me 200"],
                 @proxy.requests.map { |r| "#{r.method} #{r.path.delete_prefix('/api/v1')} #{r.status}" }
  end

  def test_concurrent_requests_share_one_refresh_and_the_session_survives_it
    expiring = MessagingPlatform::Client.from_session(fresh_tokens.merge("expires_at" => (Time.now.utc - 1).iso8601), base_url: @proxy.url)
    kinds = Array.new(6) { Thread.new { expiring.auth.me.kind } }.map(&:value)
    assert_equal ["user"] * 6, kinds
    assert_equal 1, refreshes

    @proxy.reset
    again = fresh_tokens
    rejected = MessagingPlatform::Client.from_session(again.merge("access_token" => broken(again["access_token"])), base_url: @proxy.url)
    pages = Array.new(6) { Thread.new { rejected.conversations.list.page } }.map(&:value)
    assert_equal 6, pages.size
    assert_equal 1, refreshes
    # A refresh token presented twice would have revoked the session: it is alive.
    assert_equal "user", rejected.auth.me.kind
    rotated = rejected.auth.refresh
    assert_equal rotated, rejected.tokens
    assert_equal "user", rejected.auth.me.kind
  end

  def test_logout_ends_the_session_the_client_forgets_it_and_the_old_tokens_stop_working
    heard = []
    session = login(on_session_change: ->(t) { heard << t })
    tokens = session.tokens.to_h
    assert_nil session.logout
    assert_nil session.tokens
    assert_nil heard.last
    error = assert_raises(MessagingPlatform::Error) { session.auth.me }
    assert_match(/logged out/, error.message)

    revived = MessagingPlatform::Client.from_session(tokens, base_url: @proxy.url)
    error = assert_raises(MessagingPlatform::AuthenticationError) { revived.auth.me }
    assert_equal "session_revoked", error.code
    assert_equal 1, refreshes, "one refresh was tried (and refused), not more"
    revived.auth.logout
    assert_nil revived.tokens
  end

  def test_an_api_key_cannot_log_out_or_refresh
    error = assert_raises(MessagingPlatform::BadRequestError) { client.logout }
    assert_equal "not_a_session", error.code
    assert_raises(MessagingPlatform::Error) { client.auth.refresh }
    assert_nil client.tokens
    refute client.session?
  end

  def test_from_session_checks_what_it_is_given
    error = assert_raises(MessagingPlatform::Error) { MessagingPlatform::Client.from_session({}, base_url: base_url) }
    assert_match(/from_session needs/, error.message)
  end
end
