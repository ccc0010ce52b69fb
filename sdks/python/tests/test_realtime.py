"""Realtime subscriptions (asyncio) against the running system's WebSocket server: live events, a drop
that is resumed through ``GET /events?after=`` with nothing missed and nothing twice, and refused tickets."""
from __future__ import annotations

import asyncio
from typing import Any, Dict, List

import pytest

from messaging_platform import AsyncMessagingClient, RealtimeRefused, subscribe
from messaging_platform.realtime import _WebSocket
from support import BASE_URL, Tenant, phone


def client_of(tenant: Tenant) -> AsyncMessagingClient:
    return AsyncMessagingClient(api_key=tenant.api_key, tenant_id=tenant.tenant_id, base_url=BASE_URL)


def texts(events: List[Dict[str, Any]]) -> List[str]:
    return [e["data"]["message"]["text"] for e in events if e["type"] == "conversation.message.received"]


async def collect_until(subscription: Any, events: List[Dict[str, Any]], text: str, timeout: float = 20.0) -> None:
    async def run() -> None:
        async for event in subscription:
            events.append(event)
            if text in texts([event]):
                return

    await asyncio.wait_for(run(), timeout)


def test_live_events_and_resume_after_a_drop(tenant: Tenant) -> None:
    async def main() -> None:
        async with client_of(tenant) as client:
            statuses: List[str] = []
            live = asyncio.Event()

            def on_status(status: str) -> None:
                statuses.append(status)
                if status == "live":
                    live.set()

            events: List[Dict[str, Any]] = []
            subscription = subscribe(client, types=["conversation.message.received"], on_status=on_status,
                                     reconnect_initial_delay=0.1, reconnect_max_delay=0.5)
            iterator = subscription.__aiter__()
            first = asyncio.ensure_future(iterator.__anext__())
            await asyncio.wait_for(live.wait(), 20)
            await client.channels.sandbox_inbound(from_=phone(), text="live in python")
            events.append(await asyncio.wait_for(first, 20))
            assert texts(events) == ["live in python"]
            assert await client.events.get(events[0]["id"]) == events[0]

            # The connection drops (the socket is cut); events committed meanwhile arrive on resume.
            live.clear()
            assert subscription._socket is not None
            subscription._socket._writer.transport.abort()
            await client.channels.sandbox_inbound(from_=phone(), text="while away")
            await client.channels.sandbox_inbound(from_=phone(), text="after it")

            async def rest() -> None:
                while "after it" not in texts(events):
                    events.append(await iterator.__anext__())

            await asyncio.wait_for(rest(), 30)
            assert "reconnecting" in statuses
            assert texts(events) == ["live in python", "while away", "after it"]
            assert len({e["id"] for e in events}) == len(events)
            assert subscription.last_event_id == max(e["id"] for e in events)
            await iterator.aclose()
            await subscription.close()

    asyncio.run(main())


def test_a_ticket_opens_one_socket_only(tenant: Tenant) -> None:
    async def main() -> None:
        async with client_of(tenant) as client:
            ticket = await client.realtime.create_ticket()
            assert ticket["ticket"].startswith("rtt_")
            first = await _WebSocket.connect(ticket["url"])
            ready = await asyncio.wait_for(first.receive_text(), 20)
            assert '"realtime.ready"' in ready
            with pytest.raises(RealtimeRefused) as refused:
                await _WebSocket.connect(ticket["url"])
            assert refused.value.status == 401
            assert "invalid_ticket" in refused.value.body
            await first.close()

    asyncio.run(main())


def test_a_socket_never_greeted_is_replaced_and_pauses_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket that opens but never says ``realtime.ready`` is given up after ``ready_timeout`` and another
    is opened, with pauses that double from the initial delay (a scripted socket stands in for the server)."""
    opened: List[float] = []

    class Silent:
        async def receive_text(self) -> str:
            await asyncio.Event().wait()
            return ""

        async def send_text(self, text: str) -> None:
            pass

        async def close(self) -> None:
            pass

    async def connect(url: str, timeout: float = 10.0) -> Silent:
        opened.append(asyncio.get_running_loop().time())
        return Silent()

    class Tickets:
        async def create_ticket(self, **body: Any) -> Dict[str, str]:
            return {"url": "ws://127.0.0.1:9/"}

    class Client:
        realtime = Tickets()

    monkeypatch.setattr(_WebSocket, "connect", staticmethod(connect))

    async def main() -> None:
        subscription = subscribe(Client(), ready_timeout=0.2, reconnect_initial_delay=0.2, reconnect_max_delay=0.4)

        async def run() -> None:
            async for _ in subscription:
                pass

        task = asyncio.ensure_future(run())
        try:
            # Four sockets need 3 greeting timeouts (0.6 s) and pauses of at most 0.2 + 0.4 + 0.4 s.
            for _ in range(200):
                if len(opened) >= 4:
                    break
                await asyncio.sleep(0.05)
        finally:
            await subscription.close()
            task.cancel()
        assert len(opened) >= 4, f"sockets opened: {len(opened)}"
        gaps = [b - a for a, b in zip(opened, opened[1:])]
        # Each gap is the greeting timeout plus a pause of at least half the (doubled, capped) delay.
        for gap, least in zip(gaps, [0.2 + 0.1, 0.2 + 0.2, 0.2 + 0.2]):
            assert gap >= least - 0.02, f"gaps: {gaps}"

    asyncio.run(main())
