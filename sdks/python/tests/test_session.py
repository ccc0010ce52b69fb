"""Session mode against the running system, sync and async: login, refresh before expiry, one refresh after
a 401, one refresh shared by concurrent requests (the API ends a session whose refresh token is presented
twice), saved sessions, logout."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Optional

import pytest

from messaging_platform import (
    AsyncMessagingClient,
    AuthenticationError,
    BadRequestError,
    MessagingClient,
    MessagingError,
)
from messaging_platform.models import Tokens
from support import BASE_URL, FaultProxy, Tenant, new_tenant, platform_client


def login(tenant: Tenant, **options: Any) -> MessagingClient:
    options.setdefault("base_url", BASE_URL)
    return MessagingClient.login(email=tenant.admin_email, password=tenant.admin_password, **options)


def fresh_tokens(tenant: Tenant) -> Dict[str, Any]:
    with login(tenant) as session:
        return dict(session.tokens or {})


def broken(token: str) -> str:
    """The access token with its signature spoilt: the API answers 401."""
    return token[:-4] + ("BBBB" if token.endswith("AAAA") else "AAAA")


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def calls(proxy: FaultProxy) -> List[str]:
    return [f"{r.method} {r.path[len('/api/v1'):]} {r.status}" for r in proxy.requests]


def test_login_with_and_without_a_tenant_id_and_on_session_change_hears_it(tenant: Tenant) -> None:
    heard: List[Optional[Tokens]] = []
    with login(tenant, on_session_change=heard.append) as session:
        me = session.auth.me()
        assert me["kind"] == "user" and me["role"] == "admin"
        assert me["tenant"]["id"] == tenant.tenant_id
        assert heard == [session.tokens]
        assert session.tokens is not None and session.tokens["user"]["email"] == tenant.admin_email
        assert "mode='session'" in repr(session)
    with login(tenant, tenant_id=tenant.tenant_id) as scoped:
        assert scoped.auth.me()["kind"] == "user"
        assert isinstance(scoped.conversations.page().data, list)


def test_a_login_in_several_tenants_names_them_and_a_tenant_id_picks_one() -> None:
    first = new_tenant()
    with platform_client() as platform:
        second = platform.tenants.create(
            name="Second Home Co", plan="free", admin={"email": first.admin_email, "password": first.admin_password}
        )["tenant"]
    with pytest.raises(BadRequestError) as raised:
        login(first)
    assert raised.value.code == "tenant_required"
    assert sorted(t["id"] for t in raised.value.problem["tenants"]) == sorted([first.tenant_id, second["id"]])
    with login(first, tenant_id=second["id"]) as session:
        assert session.auth.me()["tenant"]["id"] == second["id"]


def test_a_wrong_password_is_an_authentication_error(tenant: Tenant) -> None:
    with pytest.raises(AuthenticationError) as raised:
        MessagingClient.login(email=tenant.admin_email, password="not the password", base_url=BASE_URL)
    assert raised.value.code == "invalid_credentials"


def test_refreshes_before_the_access_token_expires(tenant: Tenant, proxy: FaultProxy) -> None:
    tokens = fresh_tokens(tenant)
    heard: List[Optional[Tokens]] = []
    soon = {**tokens, "expires_at": iso(datetime.now(timezone.utc) + timedelta(seconds=30))}
    with MessagingClient.from_session(soon, base_url=proxy.url, on_session_change=heard.append) as session:  # type: ignore[arg-type]
        assert session.auth.me()["kind"] == "user"
        assert calls(proxy) == ["POST /auth/refresh 200", "GET /auth/me 200"]
        assert proxy.requests[0].headers.get("idempotency-key") is None
        assert session.tokens is not None
        assert session.tokens["access_token"] != tokens["access_token"]
        assert session.tokens["refresh_token"] != tokens["refresh_token"]
        assert heard == [session.tokens]
        session.auth.me()  # the new token is good for 30 minutes
        assert len(proxy.to("POST", "/auth/refresh")) == 1


def test_refreshes_once_after_a_401_and_repeats_the_request(tenant: Tenant, proxy: FaultProxy) -> None:
    tokens = fresh_tokens(tenant)
    with MessagingClient.from_session({**tokens, "access_token": broken(tokens["access_token"])}, base_url=proxy.url) as session:  # type: ignore[arg-type]
        assert session.auth.me()["kind"] == "user"
    assert calls(proxy) == ["GET /auth/me 401", "POST /auth/refresh 200", "GET /auth/me 200"]


def test_concurrent_threads_share_one_refresh_and_the_session_survives_it(tenant: Tenant, proxy: FaultProxy) -> None:
    expired = {**fresh_tokens(tenant), "expires_at": iso(datetime.now(timezone.utc) - timedelta(seconds=1))}
    with MessagingClient.from_session(expired, base_url=proxy.url) as session, ThreadPoolExecutor(6) as pool:  # type: ignore[arg-type]
        kinds = list(pool.map(lambda _: session.auth.me()["kind"], range(6)))
    assert kinds == ["user"] * 6
    assert len(proxy.to("POST", "/auth/refresh")) == 1

    proxy.reset()
    again = fresh_tokens(tenant)
    rejected = {**again, "access_token": broken(again["access_token"])}
    with MessagingClient.from_session(rejected, base_url=proxy.url) as session, ThreadPoolExecutor(6) as pool:  # type: ignore[arg-type]
        pages = list(pool.map(lambda _: session.conversations.page(), range(6)))
        assert len(pages) == 6
        assert len(proxy.to("POST", "/auth/refresh")) == 1
        # A refresh token presented twice would have ended the session: it is alive.
        assert session.auth.me()["kind"] == "user"
        rotated = session.auth.refresh()
        assert rotated == session.tokens
        assert session.auth.me()["kind"] == "user"


def test_logout_ends_the_session_the_client_forgets_it_and_the_old_tokens_stop_working(tenant: Tenant, proxy: FaultProxy) -> None:
    heard: List[Optional[Tokens]] = []
    session = login(tenant, on_session_change=heard.append)
    tokens = dict(session.tokens or {})
    assert session.logout() is None
    assert session.tokens is None
    assert heard[-1] is None
    with pytest.raises(MessagingError, match="logged out"):
        session.auth.me()
    session.close()

    with MessagingClient.from_session(tokens, base_url=proxy.url) as revived:  # type: ignore[arg-type]
        with pytest.raises(AuthenticationError) as raised:
            revived.auth.me()
        assert raised.value.code == "session_revoked"
        assert len(proxy.to("POST", "/auth/refresh")) == 1, "one refresh was tried (and refused), not more"
        revived.auth.logout()  # a session the API already ended counts as logged out
        assert revived.tokens is None


def test_an_api_key_cannot_log_out_or_refresh(client: MessagingClient) -> None:
    with pytest.raises(BadRequestError) as raised:
        client.logout()
    assert raised.value.code == "not_a_session"
    with pytest.raises(MessagingError):
        client.auth.refresh()
    assert client.tokens is None


def test_from_session_checks_what_it_is_given() -> None:
    with pytest.raises(MessagingError, match="from_session needs"):
        MessagingClient.from_session({}, base_url=BASE_URL)  # type: ignore[arg-type]


def test_the_async_session_logs_in_shares_one_refresh_between_tasks_and_logs_out(tenant: Tenant, proxy: FaultProxy) -> None:
    heard: List[Optional[Tokens]] = []

    async def remember(tokens: Optional[Tokens]) -> None:
        heard.append(tokens)

    async def main() -> None:
        session = await AsyncMessagingClient.login(
            email=tenant.admin_email, password=tenant.admin_password, base_url=BASE_URL, on_session_change=remember
        )
        async with session:
            assert (await session.auth.me())["kind"] == "user"
            assert heard == [session.tokens]
            tokens = dict(session.tokens or {})

        rejected = {**tokens, "access_token": broken(tokens["access_token"])}
        async with AsyncMessagingClient.from_session(rejected, base_url=proxy.url, on_session_change=remember) as resumed:  # type: ignore[arg-type]
            kinds = await asyncio.gather(*(resumed.auth.me() for _ in range(5)))
            assert [me["kind"] for me in kinds] == ["user"] * 5
            assert len(proxy.to("POST", "/auth/refresh")) == 1
            assert heard[-1] == resumed.tokens and resumed.tokens is not None
            await resumed.logout()
            assert resumed.tokens is None and heard[-1] is None
            with pytest.raises(MessagingError, match="logged out"):
                await resumed.auth.me()

        with pytest.raises(AuthenticationError):
            await AsyncMessagingClient.login(email=tenant.admin_email, password="wrong password", base_url=BASE_URL)

    asyncio.run(main())
