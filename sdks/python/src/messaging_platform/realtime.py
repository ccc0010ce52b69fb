"""Realtime events over WebSockets (asyncio), with the standard library only.

A ticket from ``POST /realtime/tickets`` opens a socket that receives each committed event as the same
envelope as webhooks and ``GET /events``. The subscription reconnects by itself with a growing pause, and
after each (re)connection fetches what it missed from ``GET /events?after=…``, so every event is yielded
once::

    async with AsyncMessagingClient(api_key=…, tenant_id=…) as client:
        async for event in subscribe(client, types=["conversation.*"]):
            print(event["type"], event["id"])

See docs/realtime.md for the protocol.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import random
import ssl
import struct
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Dict, List, Optional, Set
from urllib.parse import urlsplit

from .errors import ApiConnectionError, ApiTimeoutError, RateLimitError, ServerError

if TYPE_CHECKING:  # pragma: no cover
    from .async_client import AsyncMessagingClient

__all__ = ["RealtimeSubscription", "RealtimeRefused", "subscribe"]

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_ULID_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Resumes look back this far before the last event seen (pushes are at least once and not always in id
# order); ids already yielded are dropped.
_RESUME_OVERLAP_MS = 30_000
_SEEN_IDS = 5_000
_MAX_FRAME = 1 << 20


class RealtimeRefused(Exception):
    """The WebSocket handshake was refused (401: the ticket was used, expired or of another tenant; 429: too many connections)."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"realtime handshake refused with {status}: {body[:200]}")
        self.status = status
        self.body = body


class _Closed(Exception):
    pass


class _WebSocket:
    """The client side of RFC 6455, enough for JSON text messages: handshake, masked frames, ping, close."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def connect(cls, url: str, timeout: float = 10.0) -> "_WebSocket":
        parts = urlsplit(url)
        secure = parts.scheme == "wss"
        if parts.scheme not in ("ws", "wss") or not parts.hostname:
            raise ValueError(f"not a WebSocket URL: {url}")
        port = parts.port or (443 if secure else 80)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname, port, ssl=ssl.create_default_context() if secure else None),
            timeout,
        )
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
        writer.write(
            (
                f"GET {target} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode("ascii")
        )
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        if status != 101:
            length = int(headers.get("content-length", "0") or 0)
            body = (await reader.readexactly(length)).decode("utf-8", "replace") if length else ""
            writer.close()
            raise RealtimeRefused(status, body)
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode("ascii")).digest()).decode("ascii")
        if headers.get("sec-websocket-accept") != expected:
            writer.close()
            raise ConnectionError("the server's handshake did not answer our key")
        return cls(reader, writer)

    async def send_text(self, text: str) -> None:
        await self._send(0x1, text.encode("utf-8"))

    async def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._writer.write(header + mask + masked)
        await self._writer.drain()

    async def receive_text(self) -> str:
        """The next text message; raises _Closed when the socket closes."""
        message = b""
        while True:
            try:
                first, second = await self._reader.readexactly(2)
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                raise _Closed() from error
            fin, opcode, length = first & 0x80, first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self._reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self._reader.readexactly(8))
            if length > _MAX_FRAME:
                raise _Closed()
            mask = await self._reader.readexactly(4) if second & 0x80 else None
            payload = await self._reader.readexactly(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise _Closed()
            if opcode == 0x9:
                await self._send(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if fin:
                return message.decode("utf-8")

    async def close(self) -> None:
        try:
            await self._send(0x8, struct.pack("!H", 1000))
        except Exception:  # noqa: BLE001 - closing a socket that is already gone
            pass
        self._writer.close()


def _id_at(ms: int) -> str:
    digits = ""
    t = max(0, ms)
    for _ in range(10):
        digits = _ULID_DIGITS[t % 32] + digits
        t //= 32
    return "evt_" + digits + "0" * 16


def _time_of(event_id: str) -> int:
    ms = 0
    for c in event_id[4:14]:
        ms = ms * 32 + _ULID_DIGITS.index(c)
    return ms


def _matches(event: Dict[str, Any], types: Optional[List[str]], conversation_id: Optional[str]) -> bool:
    kind = str(event.get("type", ""))
    if types and not any(p == "*" or (kind.startswith(p[:-1]) if p.endswith(".*") else kind == p) for p in types):
        return False
    if conversation_id is None:
        return True
    data = event.get("data") or {}
    return (data.get("conversation_id") or (data.get("conversation") or {}).get("id")) == conversation_id


class RealtimeSubscription:
    """An async iterator of events that reconnects and resumes until ``close()``.

    ``last_event_id`` is the newest event yielded: pass it as ``after`` to resume a later subscription.
    ``on_status`` hears ``connecting``, ``resuming``, ``live`` and ``reconnecting``; ``on_resync`` is called
    when more was missed than ``max_resume_events`` (reload your state: those events are not replayed).
    After a drop it waits between half and all of ``reconnect_initial_delay``, twice as long after each
    failed attempt, never more than ``reconnect_max_delay``; going live starts again. A socket not greeted
    with ``realtime.ready`` within ``ready_timeout`` seconds is given up and replaced.
    """

    def __init__(
        self,
        client: "AsyncMessagingClient",
        *,
        types: Optional[List[str]] = None,
        conversation_id: Optional[str] = None,
        after: Optional[str] = None,
        ping_interval: float = 300.0,
        reconnect_initial_delay: float = 1.0,
        reconnect_max_delay: float = 30.0,
        ready_timeout: float = 15.0,
        max_resume_events: int = 1_000,
        on_status: Optional[Callable[[str], None]] = None,
        on_resync: Optional[Callable[[], None]] = None,
    ) -> None:
        self._client = client
        self.types = types
        self.conversation_id = conversation_id
        self.last_event_id = after
        self._ping_interval = ping_interval
        self._initial = reconnect_initial_delay
        self._max = reconnect_max_delay
        self._ready_timeout = ready_timeout
        self._max_resume = max_resume_events
        self._on_status = on_status or (lambda status: None)
        self._on_resync = on_resync or (lambda: None)
        self._seen: Set[str] = set()
        self._seen_order: List[str] = []
        self._closed = False
        self._socket: Optional[_WebSocket] = None

    async def close(self) -> None:
        self._closed = True
        if self._socket is not None:
            await self._socket.close()

    async def __aenter__(self) -> "RealtimeSubscription":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __aiter__(self) -> AsyncIterator[Dict[str, Any]]:
        return self._events()

    def _fresh(self, event: Dict[str, Any]) -> bool:
        event_id = event["id"]
        if event_id in self._seen or not _matches(event, self.types, self.conversation_id):
            return False
        self._seen.add(event_id)
        self._seen_order.append(event_id)
        if len(self._seen_order) > _SEEN_IDS:
            self._seen.discard(self._seen_order.pop(0))
        if self.last_event_id is None or event_id > self.last_event_id:
            self.last_event_id = event_id
        return True

    async def _missed(self, since: str) -> Optional[List[Dict[str, Any]]]:
        """The events after ``since`` (with the overlap), oldest first; None when there are too many."""
        after = _id_at(_time_of(since) - _RESUME_OVERLAP_MS)
        found: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        while True:
            query: Dict[str, Any] = {"after": after, "limit": 100}
            if cursor:
                query["cursor"] = cursor
            page = await self._client.request("GET", "/events", query=query)
            found.extend(page["data"])
            if len(found) > self._max_resume:
                return None
            pagination = page["pagination"]
            cursor = pagination.get("next_cursor") if pagination.get("has_more") else None
            if not cursor:
                return sorted(found, key=lambda e: e["id"])

    async def _events(self) -> AsyncIterator[Dict[str, Any]]:
        attempt = 0
        while not self._closed:
            self._on_status("connecting" if attempt == 0 else "reconnecting")
            ticket_body: Dict[str, Any] = {}
            if self.types:
                ticket_body["types"] = self.types
            if self.conversation_id:
                ticket_body["conversation_id"] = self.conversation_id
            socket: Optional[_WebSocket] = None
            ping: Optional["asyncio.Task[None]"] = None
            resume_from = self.last_event_id
            try:
                ticket = await self._client.realtime.create_ticket(**ticket_body)
                socket = self._socket = await _WebSocket.connect(ticket["url"])
                waiting: List[Dict[str, Any]] = []
                live = False
                greeted = False
                while not self._closed:
                    received = socket.receive_text()
                    # A lost greeting must not leave the subscription waiting for good.
                    text = await (received if greeted else asyncio.wait_for(received, self._ready_timeout))
                    message = json.loads(text)
                    if message.get("type") == "realtime.ready":
                        if greeted:
                            continue
                        greeted = True
                        ping = asyncio.ensure_future(self._pinger(socket))
                        if resume_from:
                            self._on_status("resuming")
                            missed = await self._missed(resume_from)
                            if missed is None:
                                self._on_resync()
                            else:
                                for event in missed:
                                    if self._fresh(event):
                                        yield event
                        live = True
                        attempt = 0
                        self._on_status("live")
                        for event in waiting:
                            if self._fresh(event):
                                yield event
                        waiting = []
                    elif isinstance(message.get("id"), str):
                        if not live:
                            waiting.append(message)
                        elif self._fresh(message):
                            yield message
            except (_Closed, ConnectionError, OSError, asyncio.TimeoutError, RealtimeRefused, ValueError,
                    ApiConnectionError, ApiTimeoutError, RateLimitError, ServerError):
                # A drop, a refused or failed connection, or the API out of reach for now: try again later.
                pass
            finally:
                if ping is not None:
                    ping.cancel()
                if socket is not None:
                    await socket.close()
                self._socket = None
            if self._closed:
                break
            # Between half and all of the doubled delay, so the maximum is never exceeded.
            delay = min(self._max, self._initial * 2 ** min(attempt, 30))
            attempt += 1
            await asyncio.sleep(delay * (0.5 + random.random() / 2))

    async def _pinger(self, socket: _WebSocket) -> None:
        # API Gateway closes a socket idle for 10 minutes.
        while True:
            await asyncio.sleep(self._ping_interval)
            await socket.send_text(json.dumps({"action": "ping"}))


def subscribe(client: "AsyncMessagingClient", **options: Any) -> RealtimeSubscription:
    """A realtime subscription on an async client; iterate it with ``async for``. See RealtimeSubscription."""
    return RealtimeSubscription(client, **options)
