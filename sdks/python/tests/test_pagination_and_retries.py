"""Against the running system through a recording, fault-injecting proxy: cursor pagination (lazy
iteration over every page, one page with its cursor, resuming), and retries of lost responses and slow
attempts, where the Idempotency-Key makes a retried POST act once."""
from __future__ import annotations

import secrets
from typing import Iterator, List

import pytest

from messaging_platform import ApiConnectionError, ApiTimeoutError, MessagingClient, Page
from support import FaultProxy, Tenant, dead_url, new_tenant, phone, problem


@pytest.fixture(scope="module")
def paged_tenant() -> Iterator[Tenant]:
    made = new_tenant()
    yield made
    made.close()


@pytest.fixture(scope="module")
def ids(paged_tenant: Tenant) -> List[str]:
    """Seven conversations of a fresh tenant, newest first."""
    client = paged_tenant.client()
    return [client.conversations.create(channel="sandbox", customer={"phone": phone()})["id"] for _ in range(7)][::-1]


def test_iterating_walks_every_item_of_every_page_lazily(paged_tenant: Tenant, ids: List[str], proxy: FaultProxy) -> None:
    client = paged_tenant.client(base_url=proxy.url)
    listing = client.conversations.list(limit=3)
    assert proxy.requests == [], "a list fetches nothing until it is iterated"
    assert [c["id"] for c in listing] == ids
    requests = proxy.to("GET", "/conversations")
    assert len(requests) == 3
    assert "limit=3" in requests[0].path and "cursor=" not in requests[0].path
    assert "cursor=" in requests[1].path

    proxy.reset()
    assert [c["id"] for c in client.conversations.list(limit=3).to_list(max=4)] == ids[:4]
    assert len(proxy.requests) == 2, "stops fetching once it has enough"


def test_one_page_with_its_cursor_next_page_and_resuming(paged_tenant: Tenant, ids: List[str]) -> None:
    client = paged_tenant.client()
    page = client.conversations.page(limit=3)
    assert isinstance(page, Page)
    assert [c["id"] for c in page] == ids[:3]
    assert page.has_more and page.limit == 3 and page.next_cursor

    resumed = client.conversations.page(limit=3, cursor=page.next_cursor)
    assert [c["id"] for c in resumed.data] == ids[3:6]
    following = page.next_page()
    assert following is not None and following.data == resumed.data

    last = resumed.next_page()
    assert last is not None and [c["id"] for c in last] == ids[6:]
    assert not last.has_more and last.next_cursor is None and last.next_page() is None
    assert [len(p) for p in client.conversations.list(limit=3).pages()] == [3, 3, 1]
    assert [c["id"] for c in client.conversations.list(limit=3, cursor=page.next_cursor)] == ids[3:]


def test_a_post_whose_response_was_lost_is_retried_with_its_key_and_acts_once(tenant: Tenant, client: MessagingClient, proxy: FaultProxy) -> None:
    conversation = client.conversations.create(channel="sandbox", customer={"phone": phone()})
    proxy.decide = lambda request, index: ("drop",) if index == 0 else ("forward",)
    sent = tenant.client(base_url=proxy.url).conversations.messages.send(conversation["id"], text="exactly once")
    first, second = proxy.requests
    assert first.status == 202, "the first attempt did act"
    assert first.headers["idempotency-key"] == second.headers["idempotency-key"]
    assert second.response_headers.get("idempotent-replayed") == "true"
    copies = [m["id"] for m in client.conversations.messages.list(conversation["id"]) if m["text"] == "exactly once"]
    assert copies == [sent["id"]]


def test_a_post_meeting_its_first_attempt_still_running_waits_and_gets_the_first_response(tenant: Tenant, client: MessagingClient, proxy: FaultProxy) -> None:
    conversation = client.conversations.create(channel="sandbox", customer={"phone": phone()})
    in_progress = ("respond", 409, {"retry-after": "0"}, problem(409, "idempotency_request_in_progress"))
    proxy.decide = lambda request, index: [("drop",), in_progress][index] if index < 2 else ("forward",)
    sent = tenant.client(base_url=proxy.url).conversations.messages.send(conversation["id"], text="once, after a wait")
    assert len(proxy.requests) == 3
    assert len({r.headers["idempotency-key"] for r in proxy.requests}) == 1
    assert proxy.requests[2].response_headers.get("idempotent-replayed") == "true"
    copies = [m["id"] for m in client.conversations.messages.list(conversation["id"]) if m["text"] == "once, after a wait"]
    assert copies == [sent["id"]]


def test_a_conditional_update_whose_response_was_lost_is_not_retried(tenant: Tenant, client: MessagingClient, proxy: FaultProxy) -> None:
    conversation = client.conversations.create(channel="sandbox", customer={"phone": phone()})
    proxy.decide = lambda request, index: ("drop",) if index == 0 else ("forward",)
    # It may have been applied: a retry would answer 412 for this very change, so the outcome is left unknown.
    with pytest.raises(ApiConnectionError):
        tenant.client(base_url=proxy.url).conversations.update(conversation["id"], priority="urgent", if_match=conversation["version"])
    assert len(proxy.requests) == 1
    applied = client.conversations.get(conversation["id"])
    assert (applied["priority"], applied["version"]) == ("urgent", conversation["version"] + 1)
    proxy.reset()
    proxy.decide = lambda request, index: ("drop",) if index == 0 else ("forward",)
    tenant.client(base_url=proxy.url).conversations.update(conversation["id"], priority="low")
    assert len(proxy.requests) == 2, "an unconditional update is still retried"


def test_a_caller_chosen_key_replays_the_first_response(tenant: Tenant, proxy: FaultProxy) -> None:
    key = f"order-{secrets.token_hex(6)}"
    customer = {"phone": phone()}
    via_proxy = tenant.client(base_url=proxy.url)
    first = via_proxy.conversations.create(channel="sandbox", customer=customer, options={"idempotency_key": key})  # type: ignore[arg-type]
    again = via_proxy.conversations.create(channel="sandbox", customer=customer, options={"idempotency_key": key})  # type: ignore[arg-type]
    assert first == again
    assert [r.headers["idempotency-key"] for r in proxy.requests] == [key, key]
    assert proxy.requests[-1].response_headers.get("idempotent-replayed") == "true"


def test_slow_attempts_time_out_and_are_retried_and_a_dead_port_is_a_connection_error(tenant: Tenant, proxy: FaultProxy) -> None:
    # The first attempt outlasts the timeout; the second is forwarded at once.
    proxy.decide = lambda request, index: ("delay", 2.0) if index == 0 else ("forward",)
    assert tenant.client(base_url=proxy.url, timeout=1.0).auth.me()["kind"] == "api_key"
    assert len(proxy.requests) == 2

    proxy.reset()
    proxy.decide = lambda request, index: ("delay", 1.5)
    with pytest.raises(ApiTimeoutError):
        tenant.client(base_url=proxy.url, timeout=0.3, max_retries=1).auth.me()
    assert len(proxy.requests) == 2

    url = dead_url()
    with pytest.raises(ApiConnectionError):
        tenant.client(base_url=url, max_retries=1).auth.me()
