"""The asynchronous client against the running system: resources, pagination with ``async for``, errors,
retries through a faulty proxy, and the operator API."""
from __future__ import annotations

import asyncio
import secrets
from typing import Any, Awaitable, Callable, List

import pytest

from messaging_platform import (
    AsyncMessagingClient,
    AsyncPage,
    AsyncPlatformClient,
    ConflictError,
    NotFoundError,
    PreconditionFailedError,
    RateLimitError,
    ValidationError,
)
from support import ADMIN_PASSWORD, BASE_URL, RUNTIME, FaultProxy, Tenant, day_ahead, phone, problem


def run(test: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(test())


def tenant_client(tenant: Tenant, **options: Any) -> AsyncMessagingClient:
    options.setdefault("base_url", BASE_URL)
    return AsyncMessagingClient(api_key=tenant.api_key, tenant_id=tenant.tenant_id, **options)


def test_conversations_messages_bookings_ai_and_events(tenant: Tenant) -> None:
    async def main() -> None:
        async with tenant_client(tenant) as client:
            me = await client.auth.me()
            assert me["tenant"]["id"] == tenant.tenant_id

            inbound = await client.channels.sandbox_inbound(from_=phone(), name="Ana", text="Hola, quiero reservar")
            conversation_id = inbound["conversation"]["id"]  # type: ignore[typeddict-item]
            got = await client.conversations.get(conversation_id)
            assert got["status"] == "open"
            sent = await client.conversations.messages.send(conversation_id, text="¡Claro!")
            assert sent["status"] == "queued"
            texts = [m["text"] async for m in client.conversations.messages.list(conversation_id)]
            assert texts[0] == "¡Claro!" and len(texts) == 2

            # A conversation no inbound message is still updating in the background.
            quiet = await client.conversations.create(channel="sandbox", customer={"phone": phone()})
            updated = await client.conversations.update(quiet["id"], priority="urgent", if_match=quiet["version"])
            assert updated["version"] == quiet["version"] + 1
            with pytest.raises(PreconditionFailedError):
                await client.conversations.update(quiet["id"], priority="low", if_match=quiet["version"])

            customer_id = got["customer"]["id"]
            day = day_ahead(3)
            booking = await client.bookings.create(customer={"id": customer_id}, service="Consulta", resource_id="room-async",
                                                   start_at=f"{day}T09:00:00Z", end_at=f"{day}T09:30:00Z", timezone="UTC",
                                                   conversation_id=conversation_id)
            with pytest.raises(ConflictError) as raised:
                await client.bookings.create(customer={"id": customer_id}, service="Consulta", resource_id="room-async",
                                             start_at=f"{day}T09:15:00Z", end_at=f"{day}T09:45:00Z", timezone="UTC")
            assert raised.value.code == "booking_conflict"
            free = await client.bookings.availability(resource_id="room-async", from_=f"{day}T09:00:00Z", to=f"{day}T10:00:00Z",
                                                      duration_minutes=30)
            assert free["slots"] == [{"start_at": f"{day}T09:30:00.000Z", "end_at": f"{day}T10:00:00.000Z"}]
            assert (await client.bookings.cancel(booking["id"], reason="async test"))["status"] == "cancelled"

            analysis = await client.ai.analyze(text="I want to book an appointment for tomorrow at 3pm")
            assert analysis["intent"]["name"] == "book_appointment"
            events = await client.events.list(type="booking.*").to_list()
            assert {e["type"] for e in events} >= {"booking.created", "booking.cancelled"}
            with pytest.raises(NotFoundError):
                await client.webhooks.get("whk_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")

    run(main)


def test_async_saved_replies(tenant: Tenant) -> None:
    async def main() -> None:
        async with tenant_client(tenant) as client:
            prefix = f"a{secrets.token_hex(3)}"
            thanks = await client.saved_replies.create(shortcut=f"{prefix}-thanks", title="Thanks", text="Thank you, {{customer.name | friend}}!")
            bye = await client.saved_replies.create(shortcut=f"{prefix}-bye", title="Bye", text="Bye!")
            assert [r["id"] async for r in client.saved_replies.list(shortcut=prefix, limit=1)] == [bye["id"], thanks["id"]]
            with pytest.raises(ConflictError) as raised:
                await client.saved_replies.update(bye["id"], shortcut=f"{prefix}-thanks")
            assert raised.value.code == "shortcut_taken"
            renamed = await client.saved_replies.update(bye["id"], title="Goodbye", if_match=bye["version"])
            assert (renamed["title"], renamed["version"]) == ("Goodbye", bye["version"] + 1)
            with pytest.raises(PreconditionFailedError):
                await client.saved_replies.update(bye["id"], title="So long", if_match=bye["version"])

            unnamed = await client.conversations.create(channel="sandbox", customer={"phone": phone()})
            assert await client.saved_replies.render(thanks["id"], conversation_id=unnamed["id"]) == {"text": "Thank you, friend!", "missing": []}
            await client.saved_replies.delete(thanks["id"])
            with pytest.raises(NotFoundError):
                await client.saved_replies.render(thanks["id"], conversation_id=unnamed["id"])

    run(main)


def test_async_schedules(tenant: Tenant) -> None:
    async def main() -> None:
        async with tenant_client(tenant) as client:
            prefix = f"async-{secrets.token_hex(3)}"
            desk, lab = f"{prefix}-desk", f"{prefix}-lab"
            made = await client.schedules.create(resource_id=desk, timezone="Europe/Berlin", weekly_hours={"mon": [{"start": "09:00", "end": "17:00"}]})
            assert made["weekly_hours"] == {"mon": [{"start": "09:00", "end": "17:00"}], "tue": [], "wed": [], "thu": [], "fri": [], "sat": [], "sun": []}
            assert await client.schedules.get(desk) == made
            await client.schedules.create(resource_id=lab, timezone="UTC", weekly_hours={"tue": [{"start": "00:00", "end": "24:00"}]})
            assert [s["resource_id"] async for s in client.schedules.list(limit=1) if s["resource_id"].startswith(prefix)] == [desk, lab]

            customer = await client.conversations.create(channel="sandbox", customer={"phone": phone()})
            with pytest.raises(ValidationError) as raised:
                await client.bookings.create(customer={"id": customer["customer"]["id"]}, service="Consulta", resource_id=desk,
                                             start_at="2031-03-03T16:30:00+01:00", end_at="2031-03-03T17:30:00+01:00", timezone="Europe/Berlin")
            assert raised.value.code == "outside_opening_hours"
            day = await client.bookings.availability(resource_id=desk, from_="2031-03-03T00:00:00Z", to="2031-03-04T00:00:00Z")
            assert day["closed"] == [{"start_at": "2031-03-03T00:00:00.000Z", "end_at": "2031-03-03T08:00:00.000Z"},
                                     {"start_at": "2031-03-03T16:00:00.000Z", "end_at": "2031-03-04T00:00:00.000Z"}]
            assert day["free"] == [{"start_at": "2031-03-03T08:00:00.000Z", "end_at": "2031-03-03T16:00:00.000Z"}]

            later = await client.schedules.update(desk, weekly_hours={"mon": [{"start": "09:00", "end": "18:00"}]}, if_match=made["version"])
            assert later["version"] == made["version"] + 1
            with pytest.raises(PreconditionFailedError):
                await client.schedules.update(desk, timezone="UTC", if_match=made["version"])
            with pytest.raises(PreconditionFailedError):
                await client.schedules.delete(desk, if_match=made["version"])
            assert await client.schedules.delete(desk, if_match=later["version"]) is None
            await client.schedules.delete(lab)
            with pytest.raises(NotFoundError):
                await client.schedules.get(desk)

    run(main)


def test_async_pagination_pages_cursors_and_to_list() -> None:
    async def main() -> None:
        async with AsyncPlatformClient(token=RUNTIME["platformToken"], base_url=BASE_URL) as platform:
            created = await platform.tenants.create(
                name="Async Paging Co", plan="pro", admin={"email": f"async-{secrets.token_hex(4)}@example.com", "password": ADMIN_PASSWORD}
            )
            assert (await platform.tenants.get(created["tenant"]["id"]))["name"] == "Async Paging Co"
        async with AsyncMessagingClient(api_key=created["api_key"]["key"], tenant_id=created["tenant"]["id"], base_url=BASE_URL) as client:
            made = [(await client.conversations.create(channel="sandbox", customer={"phone": phone()}))["id"] for _ in range(5)]
            newest_first = list(reversed(made))

            page = await client.conversations.page(limit=2)
            assert isinstance(page, AsyncPage)
            assert [c["id"] for c in page] == newest_first[:2] and page.has_more and page.next_cursor
            resumed = await client.conversations.page(limit=2, cursor=page.next_cursor)
            following = await page.next_page()
            assert following is not None and following.data == resumed.data == [c for c in resumed]

            assert [c["id"] async for c in client.conversations.list(limit=2)] == newest_first
            sizes: List[int] = [len(p) async for p in client.conversations.list(limit=2).pages()]
            assert sizes == [2, 2, 1]
            assert [c["id"] for c in await client.conversations.list(limit=2).to_list(max=3)] == newest_first[:3]

    run(main)


def test_async_retries_honour_retry_after_and_keep_the_idempotency_key(tenant: Tenant) -> None:
    proxy = FaultProxy(decide=lambda request, index: ("respond", 429, {"retry-after": "0"}, problem(429, "rate_limited")) if index == 0 else ("forward",))

    async def main() -> None:
        async with tenant_client(tenant, base_url=proxy.url) as client:
            created = await client.conversations.create(channel="sandbox", customer={"phone": phone()})
            assert created["id"].startswith("conv_")
            first, second = proxy.requests
            assert (first.status, second.status) == (429, 201)
            assert first.headers["idempotency-key"] == second.headers["idempotency-key"]

            proxy.reset()
            proxy.fail_first(1, 429, {"retry-after": "1"}, "rate_limited")
            with pytest.raises(RateLimitError) as raised:
                await client.auth.me(options={"max_retries": 0})
            assert raised.value.retry_after == 1 and len(proxy.requests) == 1

    try:
        run(main)
    finally:
        proxy.close()
