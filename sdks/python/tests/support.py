"""Test helpers: the local runtime's addresses, fresh tenants made with the SDK itself, a fault-injecting
HTTP proxy in front of the runtime, a real HTTPS webhook receiver, and polling for asynchronous work."""
from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import ssl
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from messaging_platform import MessagingClient, PlatformClient

ADMIN_PASSWORD = "correct horse battery staple"


def runtime() -> Dict[str, Any]:
    path = os.environ.get("TEST_RUNTIME_FILE")
    if not path:
        raise RuntimeError("TEST_RUNTIME_FILE is not set: run the tests with `npm run test:sdk:python` from the repository root")
    with open(path, encoding="utf-8") as file:
        return json.load(file)  # type: ignore[no-any-return]


RUNTIME = runtime()
BASE_URL: str = RUNTIME["url"]
TLS: Dict[str, str] = RUNTIME["tls"]


def platform_client(**options: Any) -> PlatformClient:
    return PlatformClient(token=RUNTIME["platformToken"], base_url=options.pop("base_url", BASE_URL), **options)


@dataclass
class Tenant:
    tenant_id: str
    api_key: str
    admin_email: str
    admin_user_id: str
    admin_password: str = ADMIN_PASSWORD
    clients: List[MessagingClient] = field(default_factory=list)

    def client(self, **options: Any) -> MessagingClient:
        """A client with the tenant's admin API key (other options: a proxy's base_url, retries …)."""
        options.setdefault("base_url", BASE_URL)
        options.setdefault("api_key", self.api_key)
        options.setdefault("tenant_id", self.tenant_id)
        made = MessagingClient(**options)
        self.clients.append(made)
        return made

    def close(self) -> None:
        for made in self.clients:
            made.close()


def new_tenant(plan: str = "pro") -> Tenant:
    """A fresh tenant (so tests never see each other's data), created with the SDK's PlatformClient."""
    email = f"sdk-py-{secrets.token_hex(4)}@example.com"
    with platform_client() as platform:
        created = platform.tenants.create(
            name="Python SDK Test Co", plan=plan, admin={"email": email, "password": ADMIN_PASSWORD, "name": "Sam Admin"}  # type: ignore[arg-type]
        )
    return Tenant(
        tenant_id=created["tenant"]["id"],
        api_key=created["api_key"]["key"],
        admin_email=email,
        admin_user_id=created["admin_user"]["id"],
    )


def phone() -> str:
    """A unique E.164 number for a sandbox customer."""
    return f"+49151{random.randrange(100_000_000):08d}"


def day_ahead(days: int) -> str:
    return (datetime.now(timezone.utc) + timedelta(days=days)).strftime("%Y-%m-%d")


def eventually(check: Callable[[], Any], timeout: float = 15.0, interval: float = 0.1) -> Any:
    """Calls ``check`` until it returns something truthy (receipts, deliveries), failing after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s (last value {value!r})")
        time.sleep(interval)


# A fault-injecting proxy ---------------------------------------------------------------------------

HOP_HEADERS = {"host", "connection", "content-length", "keep-alive", "transfer-encoding", "accept-encoding", "content-encoding"}


@dataclass
class Seen:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes
    at: float
    status: Optional[int] = None
    response_headers: Dict[str, str] = field(default_factory=dict)


#: ("forward",) | ("drop",) forward, then cut the connection before answering | ("delay", seconds) then
#: forward | ("respond", status, headers, problem dict) without asking the runtime.
Decision = Tuple[Any, ...]
Decide = Callable[[Seen, int], Decision]


def problem(status: int, code: str) -> Dict[str, Any]:
    return {
        "type": f"https://docs.messaging.dev/problems/{code}",
        "title": "Injected",
        "status": status,
        "detail": f"injected {code}",
        "code": code,
        "request_id": "req-injected",
    }


class FaultProxy:
    """An HTTP proxy in front of the runtime that records every request and injects faults by arrival order."""

    def __init__(self, target: str = BASE_URL, decide: Optional[Decide] = None) -> None:
        parts = urlsplit(target)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.decide: Decide = decide or (lambda request, index: ("forward",))
        self._seen: List[Seen] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def handle_one(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
                with proxy._lock:
                    proxy._seen.append(seen)
                    index = len(proxy._seen) - 1
                action, *args = proxy.decide(seen, index)
                self.close_connection = True
                try:
                    if action == "respond":
                        status, headers, payload = args
                        seen.status = status
                        self.write(status, {"content-type": "application/problem+json", **headers}, json.dumps(payload).encode())
                        return
                    if action == "delay":
                        time.sleep(args[0])
                    status, headers, content = proxy.forward(seen)
                    seen.status, seen.response_headers = status, headers
                    if action != "drop":  # a drop: the runtime acted, the client never hears of it
                        self.write(status, headers, content)
                except OSError:
                    pass  # the client went away (a timeout)

            def write(self, status: int, headers: Dict[str, str], content: bytes) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.send_header("connection", "close")
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = handle_one

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def forward(self, seen: Seen) -> Tuple[int, Dict[str, str], bytes]:
        connection = http.client.HTTPConnection(*self.target, timeout=30)
        try:
            headers = {k: v for k, v in seen.headers.items() if k not in HOP_HEADERS}
            connection.request(seen.method, seen.path, body=seen.body or None, headers=headers)
            response = connection.getresponse()
            content = response.read()
            kept = {k.lower(): v for k, v in response.getheaders() if k.lower() not in HOP_HEADERS}
            return response.status, kept, content
        finally:
            connection.close()

    @property
    def requests(self) -> List[Seen]:
        with self._lock:
            return list(self._seen)

    def to(self, method: str, prefix: str) -> List[Seen]:
        """Requests with ``method`` to paths (after /api/v1) starting with ``prefix``."""
        return [s for s in self.requests if s.method == method and s.path[len("/api/v1"):].startswith(prefix)]

    def reset(self) -> None:
        with self._lock:
            self._seen.clear()

    def fail_first(self, count: int, status: int, headers: Optional[Dict[str, str]] = None, code: str = "injected") -> None:
        """Answers the first ``count`` requests with ``status`` (a problem), then forwards."""
        self.decide = lambda request, index: ("respond", status, headers or {}, problem(status, code)) if index < count else ("forward",)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# A real HTTPS webhook receiver -----------------------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: Any  # the request's http.client.HTTPMessage, as a web framework would hand it over
    body: bytes
    at: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class WebhookReceiver:
    """An HTTPS server on 127.0.0.1 with the certificate the runtime's test CA signed; ``behaviour`` picks
    the (status, body) of each answer."""

    def __init__(self, behaviour: Optional[Callable[[Received], Tuple[int, str]]] = None) -> None:
        self.behaviour = behaviour or (lambda received: (200, "ok"))
        self._received: List[Received] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                received = Received(self.path, self.headers, self.rfile.read(length), time.monotonic())
                with receiver._lock:
                    receiver._received.append(received)
                status, text = receiver.behaviour(received)
                content = text.encode()
                self.close_connection = True
                self.send_response(status)
                self.send_header("content-type", "text/plain")
                self.send_header("content-length", str(len(content)))
                self.send_header("connection", "close")
                self.end_headers()
                self.wfile.write(content)

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(TLS["cert"], TLS["key"])
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # The TLS handshake happens on first read, in the connection's own thread.
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True, do_handshake_on_connect=False)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"https://localhost:{self.server.server_address[1]}{path}"

    @property
    def received(self) -> List[Received]:
        with self._lock:
            return list(self._received)

    def find(self, *needles: str) -> Optional[Received]:
        """The first delivery whose body contains every needle."""
        return next((r for r in self.received if all(n in r.text for n in needles)), None)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
