"""The client logic that needs no API: backoff, Retry-After, retries and their limits, Idempotency-Key,
headers, request building, and the mapping of problem+json answers to errors. A fake transport
(httpx.MockTransport) answers, and the waits are recorded instead of slept."""
from __future__ import annotations

import asyncio
import email.utils
import json
import pickle
import re
import time
from datetime import datetime, timezone
from typing import Any, Dict, Iterator, List, Optional

import httpx
import pytest

import messaging_platform._async as async_io
import messaging_platform._sync as sync_io
from messaging_platform import (
    NOT_GIVEN,
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AsyncMessagingClient,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MessagingClient,
    MessagingError,
    NotFoundError,
    PermissionDeniedError,
    PlatformClient,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    ValidationError,
)
from messaging_platform._core import api_base, backoff_delay, etag_of
from messaging_platform.errors import error_from_response, parse_retry_after, problem_of

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
ME = {"kind": "api_key", "role": "admin", "key_id": "key_1", "tenant": {"id": "t1", "name": "Acme"}}


def problem_response(status: int, code: str = "injected", headers: Optional[Dict[str, str]] = None, **extra: Any) -> httpx.Response:
    body = {"type": f"https://docs.messaging.dev/problems/{code}", "title": "T", "status": status, "detail": f"detail {code}",
            "code": code, "request_id": "req-1", **extra}
    return httpx.Response(status, json=body, headers={"content-type": "application/problem+json", **(headers or {})})


class Fake:
    """Answers requests in turn from a script of responses (or exceptions to raise), recording them."""

    def __init__(self, *script: Any) -> None:
        self.script: List[Any] = list(script)
        self.requests: List[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, Exception):
            raise step
        return step(request) if callable(step) else step

    def header(self, name: str) -> List[Optional[str]]:
        return [r.headers.get(name) for r in self.requests]


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[float]]:
    """The waits between attempts, recorded instead of slept (both clients)."""
    waited: List[float] = []

    async def async_sleep(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr(sync_io.time, "sleep", waited.append)
    monkeypatch.setattr(async_io.asyncio, "sleep", async_sleep)
    yield waited


def make(fake: Fake, **options: Any) -> MessagingClient:
    return MessagingClient(api_key="sk_test", tenant_id="t1", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(fake)), **options)


# Pure helpers -----------------------------------------------------------------------------------


def test_backoff_is_exponential_with_jitter_between_half_and_all_capped_at_8_seconds() -> None:
    assert [backoff_delay(n, lambda: 0.0) for n in range(6)] == [0.25, 0.5, 1.0, 2.0, 4.0, 4.0]
    assert [backoff_delay(n, lambda: 1.0) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    delays = [backoff_delay(2) for _ in range(50)]
    assert all(1.0 <= d <= 2.0 for d in delays)
    assert len(set(delays)) > 1, "jitter"


def test_base_url_gets_api_v1_unless_it_ends_with_a_version() -> None:
    assert api_base("http://127.0.0.1:3000") == "http://127.0.0.1:3000/api/v1"
    assert api_base("https://api.example.com/") == "https://api.example.com/api/v1"
    assert api_base("https://api.example.com/api/v1/") == "https://api.example.com/api/v1"
    assert api_base("https://example.com/messaging/v1") == "https://example.com/messaging/v1"
    for bad in ("api.example.com", "", "ftp://x"):
        with pytest.raises(MessagingError):
            api_base(bad)


def test_retry_after_is_seconds_or_an_http_date() -> None:
    assert parse_retry_after("1") == 1
    assert parse_retry_after("2.5") == 2.5
    now = time.time()
    assert 29 <= parse_retry_after(email.utils.formatdate(now + 30, usegmt=True), now) <= 31  # type: ignore[operator]
    assert parse_retry_after(email.utils.formatdate(now - 30, usegmt=True), now) == 0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
    assert parse_retry_after(" ") is None


def test_versions_are_quoted_as_etags() -> None:
    assert etag_of(3) == '"3"'
    assert etag_of("3") == '"3"'
    assert etag_of('"3"') == '"3"'
    assert etag_of('W/"3"') == 'W/"3"'
    assert etag_of("*") == "*"
    with pytest.raises(MessagingError):
        etag_of(True)


def test_statuses_map_to_error_classes_carrying_the_problem_fields() -> None:
    problem = {"type": "https://docs.messaging.dev/problems/c", "title": "T", "status": 422, "detail": "d", "code": "c",
               "request_id": "r", "errors": [{"path": "a.b", "message": "m"}]}
    classes = {400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError,
               412: PreconditionFailedError, 422: ValidationError, 429: RateLimitError, 418: ApiError, 500: ServerError, 503: ServerError}
    for status, cls in classes.items():
        error = error_from_response(status, problem, {"retry-after": "7"})
        assert type(error) is cls
        assert isinstance(error, ApiError) and isinstance(error, MessagingError)
        assert (error.status, error.code, error.detail, error.request_id) == (status, "c", "d", "r")
        assert error.errors == [{"path": "a.b", "message": "m"}]
        assert (error.type, error.title, error.problem) == (problem["type"], "T", problem)
        assert str(error) == f"{status} c: d (request id r)"
    assert error_from_response(429, problem, {"retry-after": "7"}).retry_after == 7  # type: ignore[attr-defined]
    assert error_from_response(503, problem, {"retry-after": "2"}).retry_after == 2  # type: ignore[attr-defined]

    bare = error_from_response(502, problem_of(502, "Bad Gateway", "<html>upstream down</html>"), {"x-request-id": "from-header"})
    assert (bare.code, bare.request_id, bare.errors, bare.title) == ("http_502", "from-header", [], "Bad Gateway")
    assert "upstream down" in bare.detail

    copied = pickle.loads(pickle.dumps(error_from_response(409, problem, {"x-request-id": "r"})))
    assert type(copied) is ConflictError and copied.code == "c" and copied.headers["x-request-id"] == "r"


# Retries ----------------------------------------------------------------------------------------


def test_429_and_503_wait_for_retry_after_then_succeed(sleeps: List[float]) -> None:
    fake = Fake(problem_response(429, "rate_limited", {"retry-after": "2"}), problem_response(503, "dependency_throttled", {"retry-after": "1"}), httpx.Response(200, json=ME))
    with make(fake) as client:
        assert client.auth.me()["tenant"]["id"] == "t1"
    assert len(fake.requests) == 3
    assert sleeps == [2, 1]


def test_5xx_without_retry_after_back_off_exponentially(sleeps: List[float]) -> None:
    fake = Fake(problem_response(500), problem_response(502), problem_response(504), httpx.Response(200, json=ME))
    with make(fake, max_retries=3) as client:
        client.auth.me()
    assert len(fake.requests) == 4
    assert len(sleeps) == 3
    for retry, waited in enumerate(sleeps):
        ceiling = min(8.0, 0.5 * 2**retry)
        assert ceiling / 2 <= waited <= ceiling


def test_gives_up_after_max_retries_with_the_last_error(sleeps: List[float]) -> None:
    fake = Fake(problem_response(502, "bad_gateway"))
    with make(fake, max_retries=1) as client:
        with pytest.raises(ServerError) as raised:
            client.auth.me()
        assert (raised.value.status, raised.value.code, raised.value.request_id) == (502, "bad_gateway", "req-1")
        assert len(fake.requests) == 2

        fake.requests.clear()
        with pytest.raises(ServerError):
            client.auth.me(options={"max_retries": 0})
        assert len(fake.requests) == 1
    assert len(sleeps) == 1


@pytest.mark.parametrize("status,cls", [(400, BadRequestError), (401, AuthenticationError), (403, PermissionDeniedError),
                                        (404, NotFoundError), (409, ConflictError), (412, PreconditionFailedError),
                                        (422, ValidationError)])
def test_other_4xx_are_never_retried(status: int, cls: type, sleeps: List[float]) -> None:
    fake = Fake(problem_response(status, headers={"retry-after": "1"}), httpx.Response(200, json=ME))
    with make(fake, max_retries=5) as client:
        with pytest.raises(cls):
            client.auth.me()
    assert len(fake.requests) == 1
    assert sleeps == []


def test_a_retry_after_beyond_max_retry_delay_raises_at_once(sleeps: List[float]) -> None:
    fake = Fake(problem_response(429, "rate_limited", {"retry-after": "3600"}), httpx.Response(200, json=ME))
    with make(fake, max_retry_delay=5) as client:
        with pytest.raises(RateLimitError) as raised:
            client.auth.me()
    assert raised.value.retry_after == 3600
    assert len(fake.requests) == 1 and sleeps == []


def test_network_errors_and_timeouts_are_retried_then_raised(sleeps: List[float]) -> None:
    fake = Fake(httpx.ConnectError("connection refused"), httpx.ReadTimeout("slow"), httpx.Response(200, json=ME))
    with make(fake) as client:
        assert client.auth.me()["kind"] == "api_key"
    assert len(fake.requests) == 3 and len(sleeps) == 2

    refused = Fake(httpx.ConnectError("connection refused"))
    with make(refused, max_retries=2) as client:
        with pytest.raises(ApiConnectionError, match="refused") as raised:
            client.auth.me()
    assert not isinstance(raised.value, ApiTimeoutError)
    assert isinstance(raised.value.__cause__, httpx.ConnectError)
    assert len(refused.requests) == 3

    slow = Fake(httpx.ReadTimeout("slow"))
    with make(slow, max_retries=0, timeout=0.5) as client:
        with pytest.raises(ApiTimeoutError, match="0.5"):
            client.auth.me()


def test_the_timeout_is_handed_to_httpx_per_client_and_per_call(sleeps: List[float]) -> None:
    seen: List[Any] = []
    fake = Fake(lambda request: (seen.append(request.extensions["timeout"]), httpx.Response(200, json=ME))[1])
    with make(fake, timeout=3) as client:
        client.auth.me()
        client.auth.me(options={"timeout": 0.25})
    assert [t["read"] for t in seen] == [3, 0.25]


# Idempotency keys and headers -------------------------------------------------------------------


def test_every_post_has_a_fresh_uuid_key_kept_across_its_retries_and_other_methods_none(sleeps: List[float]) -> None:
    conversation = {"id": "conv_1", "version": 1}
    fake = Fake(problem_response(503, headers={"retry-after": "0"}), httpx.ConnectError("reset"), httpx.Response(201, json=conversation))
    with make(fake) as client:
        client.conversations.create(channel="sandbox", customer={"phone": "+4915100000000"})
        keys = fake.header("idempotency-key")
        assert len(keys) == 3 and len(set(keys)) == 1 and UUID4.match(keys[0] or "")

        fake.script = [httpx.Response(201, json=conversation)]
        fake.requests.clear()
        client.conversations.create(channel="sandbox", customer={"phone": "+4915100000000"})
        client.conversations.messages.send("conv_1", text="hi")
        client.conversations.get("conv_1")
        client.conversations.update("conv_1", priority="low")
        client.webhooks.delete("whk_1")
        by_method = [(r.method, r.headers.get("idempotency-key")) for r in fake.requests]
    posts = [key for method, key in by_method if method == "POST"]
    assert len(posts) == 2 and posts[0] != posts[1] and keys[0] not in posts
    assert all(UUID4.match(key or "") for key in posts)
    assert [key for method, key in by_method if method != "POST"] == [None, None, None]


def test_a_caller_chosen_key_is_sent_on_every_attempt(sleeps: List[float]) -> None:
    fake = Fake(problem_response(500), httpx.Response(201, json={"id": "conv_1"}))
    with make(fake) as client:
        client.conversations.create(channel="sandbox", customer={"phone": "+49"}, options={"idempotency_key": "order-42"})
    assert fake.header("idempotency-key") == ["order-42", "order-42"]


def test_requests_carry_credentials_json_if_match_and_encoded_queries() -> None:
    fake = Fake(httpx.Response(200, json={"id": "bkg_1"}))
    with make(fake, headers={"X-Trace": "abc"}) as client:
        client.bookings.update("bkg/1", notes=None, if_match=4)
        client.request("GET", "/bookings", query={"from": datetime(2026, 11, 21, 10, 0, tzinfo=timezone.utc), "limit": 5, "cursor": None})
    update, listing = fake.requests
    assert update.method == "PATCH"
    assert update.url.raw_path == b"/api/v1/bookings/bkg%2F1"
    assert update.headers["authorization"] == "Bearer sk_test"
    assert update.headers["x-tenant-id"] == "t1"
    assert update.headers["if-match"] == '"4"'
    assert update.headers["content-type"] == "application/json"
    assert update.headers["x-trace"] == "abc"
    assert update.headers["user-agent"].startswith("messaging-platform-sdk-python/")
    assert json.loads(update.content) == {"notes": None}, "None sends null; left-out arguments are not sent"
    assert listing.url.query == b"from=2026-11-21T10%3A00%3A00.000Z&limit=5"
    assert "content-type" not in listing.headers


def test_schedules_escape_the_resource_id_and_send_if_match_on_update_and_delete() -> None:
    fake = Fake(httpx.Response(200, json={"resource_id": "chair/1", "version": 3}), httpx.Response(204))
    with make(fake) as client:
        client.schedules.update("chair/1", date_overrides=[], if_match=2)
        assert client.schedules.delete("chair/1", if_match=3) is None
    update, delete = fake.requests
    assert (update.method, update.url.raw_path, update.headers["if-match"]) == ("PATCH", b"/api/v1/schedules/chair%2F1", '"2"')
    assert json.loads(update.content) == {"date_overrides": []}
    assert (delete.method, delete.url.raw_path, delete.headers["if-match"]) == ("DELETE", b"/api/v1/schedules/chair%2F1", '"3"')


def test_list_filters_and_python_names_map_to_the_wire() -> None:
    page_body = {"data": [{"id": "bkg_1"}], "pagination": {"limit": 1, "has_more": False, "next_cursor": None}}
    fake = Fake(httpx.Response(200, json=page_body))
    with make(fake) as client:
        page = client.bookings.page(from_="2026-01-01T00:00:00Z", status="confirmed", limit=1)
        fake.script = [httpx.Response(201, json={"conversation": {}, "message": {}})]
        client.channels.sandbox_inbound(from_="+4915100000000", text="hi")
    assert [b["id"] for b in page] == ["bkg_1"] and page.next_cursor is None and not page.has_more
    listing, inbound = fake.requests
    assert listing.url.params["from"] == "2026-01-01T00:00:00Z"
    assert listing.url.params["status"] == "confirmed"
    assert json.loads(inbound.content) == {"from": "+4915100000000", "text": "hi"}


def test_unknown_arguments_are_type_errors_before_any_request() -> None:
    fake = Fake(httpx.Response(200, json={}))
    with make(fake) as client:
        with pytest.raises(TypeError):
            client.conversations.list(stauts="open")  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            client.conversations.create(chanel="sandbox")  # type: ignore[call-arg]
        with pytest.raises(MessagingError):
            client.conversations.get("")
        with pytest.raises(TypeError, match="retry"):
            client.auth.me(options={"retry": 1})  # type: ignore[typeddict-unknown-key]
    assert fake.requests == []


def test_the_clients_check_their_options() -> None:
    with pytest.raises(MessagingError):
        MessagingClient(api_key="", tenant_id="t", base_url="http://api.test")
    with pytest.raises(MessagingError):
        MessagingClient(api_key="sk_x", tenant_id="", base_url="http://api.test")
    with pytest.raises(MessagingError):
        MessagingClient(api_key="sk_x", tenant_id="t", base_url="nope")
    with pytest.raises(MessagingError):
        MessagingClient(api_key="sk_x", tenant_id="t", base_url="http://api.test", max_retries=-1)
    with pytest.raises(TypeError):
        MessagingClient(api_key="sk_x", tenant_id="t", base_url="http://api.test", retries=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        MessagingClient(api_key="sk_x", tenant_id="t", base_url="http://api.test", http_client=httpx.AsyncClient())  # type: ignore[arg-type]
    with pytest.raises(MessagingError):
        PlatformClient(token="", base_url="http://api.test")
    assert repr(NOT_GIVEN) == "NOT_GIVEN" and not NOT_GIVEN


def test_a_204_is_none_and_a_non_json_success_is_text() -> None:
    fake = Fake(httpx.Response(204), httpx.Response(200, text="plain", headers={"content-type": "text/plain"}))
    with make(fake) as client:
        assert client.api_keys.revoke("key_1") is None
        assert client.request("GET", "/anything") == "plain"


def test_the_rate_limit_headers_of_the_last_response_are_kept() -> None:
    fake = Fake(httpx.Response(200, json=ME, headers={"x-ratelimit-limit": "1000", "x-ratelimit-remaining": "998", "x-ratelimit-reset": "1900000000"}))
    with make(fake) as client:
        assert client.rate_limit is None
        client.auth.me()
        assert client.rate_limit is not None
        assert (client.rate_limit.limit, client.rate_limit.remaining) == (1000, 998)
        assert client.rate_limit.reset_at == datetime.fromtimestamp(1900000000, timezone.utc)


# The asynchronous client runs the same loop ------------------------------------------------------


def test_the_async_client_retries_keeps_its_key_and_raises_the_same_errors(sleeps: List[float]) -> None:
    async def main() -> None:
        fake = Fake(problem_response(429, "rate_limited", {"retry-after": "1"}), httpx.ConnectError("reset"), httpx.Response(201, json={"id": "conv_1"}))
        http = httpx.AsyncClient(transport=httpx.MockTransport(fake))
        async with AsyncMessagingClient(api_key="sk_test", tenant_id="t1", base_url="http://api.test", http_client=http) as client:
            created = await client.conversations.create(channel="sandbox", customer={"phone": "+49"})
            assert created["id"] == "conv_1"
            keys = fake.header("idempotency-key")
            assert len(keys) == 3 and len(set(keys)) == 1 and UUID4.match(keys[0] or "")
            assert sleeps[0] == 1 and len(sleeps) == 2

            fake.script = [problem_response(409, "conversation_exists")]
            with pytest.raises(ConflictError) as raised:
                await client.conversations.create(channel="sandbox", customer={"phone": "+49"})
            assert raised.value.code == "conversation_exists"
        await http.aclose()

    asyncio.run(main())
