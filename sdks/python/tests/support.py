"""Test helpers: the local runtime's addresses, fresh tenants made with the SDK itself, the suites' shared
fault-injecting proxy and HTTPS webhook receiver, and polling for asynchronous work."""
from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import socket
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
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


# Clients of the fault proxy and the HTTPS webhook receiver that the three SDK suites share ---------------
# (sdks/conformance/test-servers.mjs, started by the runner beside the runtime). Each FaultProxy or
# WebhookReceiver is its own path on them, with its own script and records.


def _control(method: str, path: str, body: Any = None) -> Any:
    base = os.environ.get("SDK_FAULT_PROXY_URL")
    if not base:
        raise RuntimeError("SDK_FAULT_PROXY_URL is not set: run the tests with `npm run test:sdk:python` from the repository root")
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=30)
    try:
        payload = None if body is None else json.dumps(body).encode()
        connection.request(method, f"/_control{path}", body=payload, headers={"content-type": "application/json"})
        response = connection.getresponse()
        content = response.read()
        if response.status >= 300:
            raise RuntimeError(f"test servers: {method} {path} answered {response.status} {content!r}")
        return json.loads(content) if content else None
    finally:
        connection.close()


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
#: Decides by arrival index (since the last reset) alone: the shared proxy runs the decisions remotely, so
#: the request argument is always None.
Decide = Callable[[Optional[Seen], int], Decision]

#: Decisions sent for the first requests; every later one gets the decision for this index.
SCRIPTED = 16


def problem(status: int, code: str) -> Dict[str, Any]:
    return {
        "type": f"https://docs.messaging.dev/problems/{code}",
        "title": "Injected",
        "status": status,
        "detail": f"injected {code}",
        "code": code,
        "request_id": "req-injected",
    }


def _action(decision: Decision) -> Dict[str, Any]:
    kind, *args = decision
    if kind == "respond":
        status, headers, payload = args
        return {"kind": "respond", "status": status, "headers": headers, "body": payload}
    if kind == "delay":
        return {"kind": "delay", "ms": int(args[0] * 1000)}
    return {"kind": kind}


class FaultProxy:
    """A proxy in front of the runtime that records every request and injects faults by arrival order."""

    def __init__(self, decide: Optional[Decide] = None) -> None:
        made = _control("POST", "/proxies", self._script(decide or (lambda request, index: ("forward",))))
        self.id: str = made["id"]
        self.url: str = made["url"]

    @staticmethod
    def _script(decide: Decide) -> Dict[str, Any]:
        return {"script": [_action(decide(None, index)) for index in range(SCRIPTED)], "otherwise": _action(decide(None, SCRIPTED))}

    @property
    def decide(self) -> Decide:
        raise AttributeError("decisions live on the shared proxy; assign a new one")

    @decide.setter
    def decide(self, decide: Decide) -> None:
        _control("PUT", f"/proxies/{self.id}/script", self._script(decide))

    @property
    def requests(self) -> List[Seen]:
        return [
            Seen(
                method=r["method"],
                path=r["path"],
                headers=r["headers"],
                body=r["body"].encode(),
                at=r["at"] / 1000,
                status=r.get("status"),
                response_headers=r.get("response_headers") or {},
            )
            for r in _control("GET", f"/proxies/{self.id}/requests")
        ]

    def to(self, method: str, prefix: str) -> List[Seen]:
        """Requests with ``method`` to paths (after /api/v1) starting with ``prefix``."""
        return [s for s in self.requests if s.method == method and s.path[len("/api/v1"):].startswith(prefix)]

    def reset(self) -> None:
        _control("DELETE", f"/proxies/{self.id}/requests")

    def fail_first(self, count: int, status: int, headers: Optional[Dict[str, str]] = None, code: str = "injected") -> None:
        """Answers the first ``count`` requests with ``status`` (a problem), then forwards."""
        self.decide = lambda request, index: ("respond", status, headers or {}, problem(status, code)) if index < count else ("forward",)

    def close(self) -> None:
        _control("DELETE", f"/proxies/{self.id}")


def dead_url() -> str:
    """The address of a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@dataclass
class Received:
    path: str
    headers: Any  # an http.client.HTTPMessage, as a web framework would hand it over
    body: bytes
    at: float

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class WebhookReceiver:
    """A real HTTPS receiver with the certificate the runtime's test CA signed; ``behaviour`` is the
    (status, body) of every answer from now on."""

    def __init__(self, behaviour: Tuple[int, str] = (200, "ok")) -> None:
        status, body = behaviour
        made = _control("POST", "/receivers", {"status": status, "body": body})
        self.id: str = made["id"]
        self.base: str = made["url"]

    @property
    def behaviour(self) -> Tuple[int, str]:
        raise AttributeError("the behaviour lives on the shared receiver; assign a new one")

    @behaviour.setter
    def behaviour(self, answer: Tuple[int, str]) -> None:
        status, body = answer
        _control("PUT", f"/receivers/{self.id}/behaviour", {"status": status, "body": body})

    def url(self, path: str = "/hook") -> str:
        return f"{self.base}{path}"

    @property
    def received(self) -> List[Received]:
        deliveries = []
        for r in _control("GET", f"/receivers/{self.id}/received"):
            headers = http.client.HTTPMessage()
            for name, value in r["headers"].items():
                headers[name] = value
            deliveries.append(Received(r["path"], headers, r["body"].encode(), r["at"] / 1000))
        return deliveries

    def find(self, *needles: str) -> Optional[Received]:
        """The first delivery whose body contains every needle."""
        return next((r for r in self.received if all(n in r.text for n in needles)), None)

    def close(self) -> None:
        _control("DELETE", f"/receivers/{self.id}")
