"""What the synchronous and the asynchronous clients share: request building from the operation table,
headers, the retry policy (backoff with jitter, ``Retry-After``), error mapping, rate-limit headers, and the
request loop itself.

The loop is written once, as a generator that yields the I/O it needs (:class:`Send` an attempt,
:class:`Sleep`, :class:`Authorize` with the credentials, :class:`Recover` a session after a 401) and
receives the outcome. ``_sync.run_sync`` drives it with ``httpx.Client`` and ``time.sleep``,
``_async.run_async`` with ``httpx.AsyncClient`` and ``asyncio.sleep``: the decisions cannot drift apart.
"""
from __future__ import annotations

import json
import platform
import random
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Dict, Generator, Literal, Mapping, Optional, Sequence, Tuple, TypedDict, TypeVar, Union
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

import httpx

from ._operations import OPERATIONS, Operation
from ._version import __version__
from .errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    MessagingError,
    error_from_response,
    parse_retry_after,
    problem_of,
)


class NotGiven:
    """The default of optional parameters: leave the field out. (``None`` sends JSON ``null``, which
    clears a nullable field.)"""

    _instance: Optional["NotGiven"] = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __reduce__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()
_T = TypeVar("_T")
#: A parameter that may be left out.
NotGivenOr = Union[_T, NotGiven]


class RequestOptions(TypedDict, total=False):
    """Per-call options, the ``options=`` argument of every method."""

    #: The ``Idempotency-Key`` of a POST. The SDK makes a random one when it is left out; pass your own so
    #: that a retry of yours (after a crash, say) replays the first response instead of acting twice.
    idempotency_key: str
    #: Overrides the client's per-attempt timeout, in seconds.
    timeout: float
    #: Overrides the client's ``max_retries``.
    max_retries: int
    #: Extra headers for this call.
    headers: Mapping[str, str]


AuthKind = Literal["tenant", "platform", "none"]
#: ``safe``: retry after any retryable failure (GET, PATCH, DELETE, and POSTs, which carry an
#: Idempotency-Key). ``refused``: retry only when the API answered that it did not act (429, 503), for
#: calls that must not run twice (refreshing a session).
RetryPolicy = Literal["safe", "refused"]


def retry_policy_of(spec: "RequestSpec") -> RetryPolicy:
    """A conditional PATCH or DELETE is retried only when the API refused it: after a lost response it may
    have been applied, and its retry would answer 412 for the caller's own change (a POST is replayed by
    its Idempotency-Key instead)."""
    if spec.if_match is not None and spec.method != "POST":
        return "refused"
    return spec.retry


@dataclass(frozen=True)
class RateLimitInfo:
    """The hourly limit as reported by the ``X-RateLimit-*`` headers of the last response."""

    limit: int
    remaining: int
    #: When the window resets (from ``X-RateLimit-Reset``, Unix seconds).
    reset_at: datetime


@dataclass
class RequestSpec:
    """One API call, before credentials and retries."""

    method: str
    #: Relative to /api/v1, path parameters already escaped.
    path: str
    query: Dict[str, Any] = field(default_factory=dict)
    #: The JSON body; NOT_GIVEN for none.
    body: Any = NOT_GIVEN
    auth: AuthKind = "tenant"
    retry: RetryPolicy = "safe"
    if_match: Union[int, str, None] = None
    options: RequestOptions = field(default_factory=lambda: RequestOptions())
    #: Headers of the call itself (X-Tenant-ID of a login).
    headers: Dict[str, str] = field(default_factory=dict)


@dataclass
class ApiResponse:
    """A successful answer."""

    data: Any
    status: int
    headers: httpx.Headers
    #: ``X-Request-Id``.
    request_id: Optional[str]


DEFAULT_MAX_RETRIES = 2
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRY_DELAY = 60.0
INITIAL_BACKOFF = 0.5
MAX_BACKOFF = 8.0


def backoff_delay(retry: int, rand: Any = random.random) -> float:
    """Exponential backoff with jitter: 0.5 s, 1 s, 2 s … up to 8 s, each between half and all of that."""
    ceiling = min(MAX_BACKOFF, INITIAL_BACKOFF * 2**retry)
    return ceiling / 2 + rand() * (ceiling / 2)


def api_base(base_url: str) -> str:
    """The API base: ``/api/v1`` is added unless the URL already ends with a version segment."""
    if not isinstance(base_url, str) or not base_url:
        raise MessagingError("base_url is required, e.g. https://api.example.com")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise MessagingError(f"base_url must be an absolute http(s) URL such as https://api.example.com, not {base_url!r}.")
    path = parts.path.rstrip("/")
    if not path.endswith("/v1"):
        path = f"{path}/api/v1"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def new_idempotency_key() -> str:
    """A random Idempotency-Key (a UUID v4)."""
    return str(uuid.uuid4())


def etag_of(value: Union[int, str]) -> str:
    """``If-Match`` from a version number or an ETag."""
    if isinstance(value, bool):
        raise MessagingError("if_match takes a version number or an ETag.")
    if isinstance(value, int):
        return f'"{value}"'
    text = str(value)
    if text == "*" or (text.endswith('"') and (text.startswith('"') or text.startswith('W/"')) and len(text) >= 2):
        return text
    return f'"{text}"'


def format_instant(value: Union[datetime, date]) -> str:
    """A datetime as ISO 8601 in UTC (``2026-11-21T22:22:45.841Z``); naive ones are local time, as in Python."""
    if isinstance(value, datetime):
        utc = value.astimezone(timezone.utc)
        return utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return value.isoformat()


def query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime, date)):
        return format_instant(value)
    return str(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat() if value.tzinfo else format_instant(value)
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def encode_json(body: Any) -> bytes:
    return json.dumps(body, default=_json_default, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def non_negative(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        raise MessagingError(f"{name} must be a number >= 0.")
    return value


def build_spec(
    operation_id: str,
    path_args: Sequence[str] = (),
    params: Optional[Mapping[str, Any]] = None,
    *,
    if_match: Union[int, str, None] = None,
    options: Optional[RequestOptions] = None,
) -> RequestSpec:
    """The request of an operation from the resource method's arguments: each keyword goes to the query or
    the JSON body as the operation table (generated from openapi.json) says. NOT_GIVEN values are left out;
    a trailing underscore (``from_``) is dropped from the name."""
    op: Operation = OPERATIONS[operation_id]
    if len(path_args) != len(op.path_params):
        raise TypeError(f"{operation_id} takes {len(op.path_params)} path argument(s)")
    path = op.path
    for name, value in zip(op.path_params, path_args):
        if not isinstance(value, str) or not value:
            raise MessagingError(f"{name} must be a non-empty string, not {value!r}.")
        path = path.replace("{" + name + "}", quote(value, safe=""))
    query: Dict[str, Any] = {}
    body: Dict[str, Any] = {}
    for key, value in (params or {}).items():
        if value is NOT_GIVEN:
            continue
        wire = key[:-1] if key.endswith("_") else key
        if wire in op.query:
            if value is not None:
                query[wire] = value
        elif wire in op.body:
            body[wire] = value
        else:
            raise TypeError(f"{operation_id} has no parameter {key!r}")
    if if_match is not None and not op.if_match:
        raise TypeError(f"{operation_id} does not take if_match")
    return RequestSpec(
        method=op.method,
        path=path,
        query=query,
        body=body if op.has_body else NOT_GIVEN,
        auth=op.auth,  # type: ignore[arg-type]
        if_match=if_match,
        options=options or RequestOptions(),
    )


# The I/O the request loop asks its driver for.


@dataclass
class Send:
    """One attempt. The driver answers with the ``httpx.Response`` (body read), or throws the httpx error."""

    method: str
    url: str
    headers: Dict[str, str]
    content: Optional[bytes]
    timeout: Optional[float]


@dataclass
class Sleep:
    seconds: float


@dataclass
class Authorize:
    """The driver answers with ``(headers, token)`` from ``credentials.authorize()``."""

    credentials: Any


@dataclass
class Recover:
    """After a 401: the driver answers with ``credentials.recover(token)`` (True: repeat the request)."""

    credentials: Any
    token: Optional[str]


Action = Union[Send, Sleep, Authorize, Recover]
Flow = Generator[Action, Any, ApiResponse]

_RETRYABLE_TRANSPORT_ERRORS = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError)


class BaseTransport:
    """URL and headers, credentials, retries, errors: everything but the I/O."""

    def __init__(
        self,
        *,
        base_url: str,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        self.base_url = api_base(base_url)
        self.max_retries = int(non_negative(max_retries, "max_retries"))
        self.timeout = None if timeout is None else non_negative(timeout, "timeout")
        self.max_retry_delay = non_negative(max_retry_delay, "max_retry_delay")
        self.extra_headers = dict(headers or {})
        self.credentials: Dict[str, Any] = {}
        #: The rate limit reported by the last response that carried one.
        self.rate_limit: Optional[RateLimitInfo] = None
        self.user_agent = (
            f"messaging-platform-sdk-python/{__version__} "
            f"{platform.python_implementation().lower()}/{platform.python_version()} httpx/{httpx.__version__}"
        )

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        pairs = [(name, query_value(value)) for name, value in (query or {}).items() if value is not None and value is not NOT_GIVEN]
        return f"{self.base_url}{path}" + (f"?{urlencode(pairs)}" if pairs else "")

    def flow(self, spec: RequestSpec) -> Flow:
        """The request loop: attempts, credentials, retries and errors. See the module docstring."""
        options = spec.options or RequestOptions()
        unknown = sorted(set(options) - set(RequestOptions.__annotations__))
        if unknown:
            raise TypeError(f"unknown request option(s): {', '.join(unknown)}")
        max_retries = int(non_negative(options.get("max_retries", self.max_retries), "max_retries"))
        timeout = options.get("timeout", self.timeout)
        if timeout is not None:
            non_negative(timeout, "timeout")
        credentials = None
        if spec.auth != "none":
            credentials = self.credentials.get(spec.auth)
            if credentials is None:
                raise MessagingError(f"This client has no {spec.auth} credentials.")
        # One key for every attempt of this call, so that a retry after a lost response is replayed.
        idempotency_key = None
        if spec.method == "POST" and spec.auth != "none":
            idempotency_key = options.get("idempotency_key") or new_idempotency_key()
        url = self.url(spec.path, spec.query)
        content = None if spec.body is NOT_GIVEN else encode_json(spec.body)
        policy = retry_policy_of(spec)
        recovered = False
        retry = 0
        while True:
            headers = {"Accept": "application/json", "User-Agent": self.user_agent, **self.extra_headers}
            if content is not None:
                headers["Content-Type"] = "application/json"
            if idempotency_key:
                headers["Idempotency-Key"] = idempotency_key
            if spec.if_match is not None:
                headers["If-Match"] = etag_of(spec.if_match)
            headers.update(spec.headers)
            headers.update(options.get("headers") or {})
            token: Optional[str] = None
            if credentials is not None:
                auth_headers, token = yield Authorize(credentials)
                headers.update(auth_headers)

            failure: Optional[ApiConnectionError] = None
            retryable = True
            try:
                response: httpx.Response = yield Send(spec.method, url, headers, content, timeout)
            except httpx.TimeoutException as exc:
                failure = ApiTimeoutError(f"No response from {spec.method} {url} within {timeout} s.")
                failure.__cause__ = exc
            except httpx.TransportError as exc:
                failure = ApiConnectionError(f"{spec.method} {url} failed: {exc or type(exc).__name__}")
                failure.__cause__ = exc
                retryable = isinstance(exc, _RETRYABLE_TRANSPORT_ERRORS)
            if failure is not None:
                if retryable and policy == "safe" and retry < max_retries:
                    yield Sleep(backoff_delay(retry))
                    retry += 1
                    continue
                raise failure

            self.note_rate_limit(response.headers)
            if 200 <= response.status_code < 300:
                return ApiResponse(
                    data=parse_body(response),
                    status=response.status_code,
                    headers=response.headers,
                    request_id=response.headers.get("x-request-id"),
                )
            error = error_from_response(response.status_code, problem_of(response.status_code, response.reason_phrase, response.text), response.headers)
            if response.status_code == 401 and not recovered and getattr(credentials, "can_recover", False):
                recovered = True
                if (yield Recover(credentials, token)):
                    continue  # a refreshed session is not a retry
            delay = self.retry_delay(error, retry, max_retries, policy)
            if delay is None:
                raise error
            yield Sleep(delay)
            retry += 1

    def retry_delay(self, error: ApiError, retry: int, max_retries: int, policy: RetryPolicy) -> Optional[float]:
        """Seconds to wait before retrying after ``error``, or None to give up: 429 and 503 after their
        ``Retry-After``, other 5xx (``safe`` calls only) with backoff; never other 4xx. A ``Retry-After``
        longer than ``max_retry_delay`` (an hourly limit used up) is not waited out."""
        if retry >= max_retries:
            return None
        status = error.status
        # The first request with this Idempotency-Key is still running: this one did nothing; a retry replays it.
        in_progress = status == 409 and error.code == "idempotency_request_in_progress"
        refused = status in (429, 503) or in_progress
        if not (refused or (policy == "safe" and status >= 500)):
            return None
        retry_after = parse_retry_after(error.headers.get("retry-after"))
        if retry_after is None:
            return backoff_delay(retry)
        return None if retry_after > self.max_retry_delay else float(retry_after)

    def note_rate_limit(self, headers: httpx.Headers) -> None:
        limit, remaining, reset = (headers.get(f"x-ratelimit-{n}") for n in ("limit", "remaining", "reset"))
        if limit is None or remaining is None or reset is None:
            return
        try:
            self.rate_limit = RateLimitInfo(int(limit), int(remaining), datetime.fromtimestamp(int(reset), timezone.utc))
        except ValueError:
            pass


def parse_body(response: httpx.Response) -> Any:
    if not response.content:
        return None
    if "json" not in response.headers.get("content-type", "").lower():
        return response.text
    try:
        return json.loads(response.content)
    except ValueError as exc:
        raise MessagingError(f"The API answered {response.status_code} with a body that is not valid JSON.") from exc


class StaticCredentials:
    """``Authorization: Bearer <token>`` and, for tenant routes, ``X-Tenant-ID``."""

    can_recover = False

    def __init__(self, token: str, tenant_id: Optional[str] = None) -> None:
        self.token = token
        self.tenant_id = tenant_id

    def authorize(self) -> Tuple[Dict[str, str], str]:
        headers = {"Authorization": f"Bearer {self.token}"}
        if self.tenant_id:
            headers["X-Tenant-ID"] = self.tenant_id
        return headers, self.token


def require_text(value: Any, message: str) -> str:
    if not isinstance(value, str) or not value:
        raise MessagingError(message)
    return value
