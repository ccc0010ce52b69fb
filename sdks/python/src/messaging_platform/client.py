"""Generated from ``async_client.py`` by scripts/generate_sync.py: edit that file.

The synchronous clients: :class:`MessagingClient` (a tenant's API) and :class:`PlatformClient` (the
operator API)."""
from __future__ import annotations

import time
from types import TracebackType
from typing import Any, Mapping, Optional, Type, Union

import httpx

from ._core import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_DELAY,
    DEFAULT_TIMEOUT,
    NOT_GIVEN,
    RateLimitInfo,
    RequestOptions,
    RequestSpec,
    StaticCredentials,
    build_spec,
    require_text,
)
from ._session import DEFAULT_REFRESH_LEEWAY, SessionCallback, check_tokens
from ._sync import SyncSession, SyncTransport
from .models import Tokens
from .resources import (
    Ai,
    ApiKeys,
    Auth,
    Bookings,
    Channels,
    Conversations,
    Customers,
    Events,
    Payments,
    Meta,
    Realtime,
    ReminderPolicy,
    SavedReplies,
    Settings,
    Schedules,
    Templates,
    Media,
    Tenants,
    Users,
    WebhookDeliveries,
    Webhooks,
)

__all__ = ["MessagingClient", "PlatformClient"]


class MessagingClient:
    """The Messaging Platform API client, synchronous.

    With an API key (servers)::

        with MessagingClient(api_key="sk_…", tenant_id="83c2…", base_url="https://api.example.com") as client:
            for conversation in client.conversations.list(status="open"):
                ...

    With a user's login (:meth:`login`) or saved session tokens (:meth:`from_session`). ``/api/v1`` is
    added to ``base_url`` unless it already ends with ``/v1``. Use it as a context manager, or
    call :meth:`close`, to release its connections.
    """

    conversations: Conversations
    customers: Customers
    saved_replies: SavedReplies
    settings: Settings
    templates: Templates
    media: Media
    reminder_policy: ReminderPolicy
    bookings: Bookings
    payments: Payments
    schedules: Schedules
    ai: Ai
    webhooks: Webhooks
    webhook_deliveries: WebhookDeliveries
    api_keys: ApiKeys
    users: Users
    events: Events
    channels: Channels
    auth: Auth
    meta: Meta

    def __init__(
        self,
        *,
        api_key: str,
        tenant_id: str,
        base_url: str,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        """
        :param api_key: an API key (``sk_…``).
        :param tenant_id: the tenant's id (``X-Tenant-ID``).
        :param base_url: the API's address, e.g. ``https://api.example.com`` or ``http://127.0.0.1:3000``.
        :param max_retries: retries after the first attempt, for 429, 5xx, timeouts and network errors.
        :param timeout: per-attempt timeout in seconds (connect, and each read); None for none.
        :param max_retry_delay: the longest ``Retry-After`` waited out, in seconds; a longer one (an hourly
            limit used up) raises :class:`RateLimitError` at once.
        :param headers: extra headers on every request.
        :param http_client: an ``httpx.Client`` of yours (proxies, custom TLS, event hooks); it is not
            closed by :meth:`close`.
        """
        require_text(api_key, "api_key is required (or use MessagingClient.login for a user session).")
        require_text(tenant_id, "tenant_id is required with an API key.")
        transport = SyncTransport(
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            max_retry_delay=max_retry_delay,
            headers=headers,
            http_client=http_client,
        )
        transport.credentials["tenant"] = StaticCredentials(api_key, tenant_id)
        self._setup(transport, None, tenant_id)

    def _setup(self, transport: SyncTransport, session: Optional[SyncSession], tenant_id: str) -> None:
        self._transport = transport
        self._session = session
        self._tenant_id = tenant_id
        self.conversations = Conversations(transport)
        self.customers = Customers(transport)
        self.saved_replies = SavedReplies(transport)
        self.settings = Settings(transport)
        self.templates = Templates(transport)
        self.media = Media(transport)
        self.reminder_policy = ReminderPolicy(transport)
        self.bookings = Bookings(transport)
        self.payments = Payments(transport)
        self.schedules = Schedules(transport)
        self.ai = Ai(transport)
        self.webhooks = Webhooks(transport)
        self.webhook_deliveries = WebhookDeliveries(transport)
        self.api_keys = ApiKeys(transport)
        self.users = Users(transport)
        self.events = Events(transport)
        self.channels = Channels(transport)
        self.realtime = Realtime(transport)
        self.auth = Auth(transport, session)
        self.meta = Meta(transport)

    @classmethod
    def _on_session(
        cls,
        transport: SyncTransport,
        tokens: Tokens,
        received_at: Optional[float],
        refresh_leeway: float,
        on_session_change: Optional[SessionCallback],
    ) -> "MessagingClient":
        session = SyncSession(transport, tokens, received_at=received_at, refresh_leeway=refresh_leeway, on_session_change=on_session_change)
        transport.credentials["tenant"] = session
        client = cls.__new__(cls)
        client._setup(transport, session, tokens["tenant_id"])
        return client

    @classmethod
    def login(
        cls,
        *,
        email: str,
        password: str,
        base_url: str,
        tenant_id: Optional[str] = None,
        on_session_change: Optional[SessionCallback] = None,
        refresh_leeway: float = DEFAULT_REFRESH_LEEWAY,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> "MessagingClient":
        """Logs a user in and returns a client on that session. The access token is refreshed
        ``refresh_leeway`` seconds before it expires and once after a 401; ``on_session_change`` hears every
        new pair (to persist it) and None after logout. ``tenant_id`` is needed only when the email belongs
        to users of several tenants: without it, a password that is right in several raises a
        :class:`BadRequestError` (``tenant_required``) whose ``problem["tenants"]`` lists them. A wrong password
        is an :class:`AuthenticationError`."""
        transport = SyncTransport(
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            max_retry_delay=max_retry_delay,
            headers=headers,
            http_client=http_client,
        )
        spec = build_spec("login", (), {"email": email, "password": password})
        if tenant_id:
            spec.headers = {"X-Tenant-ID": tenant_id}
        sent_at = time.time()
        try:
            tokens: Tokens = transport.request(spec).data
        except BaseException:
            transport.close()
            raise
        client = cls._on_session(transport, tokens, sent_at, refresh_leeway, on_session_change)
        if on_session_change is not None:
            on_session_change(tokens)
        return client

    @classmethod
    def from_session(
        cls,
        tokens: Tokens,
        *,
        base_url: str,
        on_session_change: Optional[SessionCallback] = None,
        refresh_leeway: float = DEFAULT_REFRESH_LEEWAY,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> "MessagingClient":
        """A client on a session saved earlier (the :attr:`tokens` of a logged-in client)."""
        checked = check_tokens(tokens)
        transport = SyncTransport(
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            max_retry_delay=max_retry_delay,
            headers=headers,
            http_client=http_client,
        )
        return cls._on_session(transport, checked, None, refresh_leeway, on_session_change)

    @property
    def tokens(self) -> Optional[Tokens]:
        """The session's current tokens (None after logout, and with an API key)."""
        return None if self._session is None else self._session.tokens

    @property
    def rate_limit(self) -> Optional[RateLimitInfo]:
        """The hourly limit as of the last response (``X-RateLimit-*``), once one has been seen."""
        return self._transport.rate_limit

    @property
    def base_url(self) -> str:
        """The API base the client calls (ending with ``/api/v1``)."""
        return self._transport.base_url

    def logout(self, *, options: Optional[RequestOptions] = None) -> None:
        """Same as ``auth.logout()``."""
        self.auth.logout(options=options)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = NOT_GIVEN,
        if_match: Union[int, str, None] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        """Any endpoint, with this client's credentials, retries and errors:
        ``client.request("GET", "/events", query={"limit": 5})``. The path is relative to ``/api/v1``."""
        spec = RequestSpec(method=method.upper(), path=path, query=dict(query or {}), body=body, auth="tenant", if_match=if_match, options=options or RequestOptions())
        return self._transport.request(spec).data

    def close(self) -> None:
        """Closes the HTTP connections (unless the ``http_client`` was yours)."""
        self._transport.close()

    def __enter__(self) -> "MessagingClient":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()

    def __repr__(self) -> str:
        mode = "session" if self._session is not None else "api_key"
        return f"{type(self).__name__}(base_url={self.base_url!r}, tenant_id={self._tenant_id!r}, mode={mode!r})"


class PlatformClient:
    """The operator API (``/platform/tenants``), with the platform token::

    platform = PlatformClient(token=os.environ["PLATFORM_TOKEN"], base_url="http://127.0.0.1:3000")
    """

    tenants: Tenants

    def __init__(
        self,
        *,
        token: str,
        base_url: str,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        require_text(token, "PlatformClient needs the platform token.")
        self._transport = SyncTransport(
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            max_retry_delay=max_retry_delay,
            headers=headers,
            http_client=http_client,
        )
        self._transport.credentials["platform"] = StaticCredentials(token)
        self.tenants = Tenants(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = NOT_GIVEN,
        if_match: Union[int, str, None] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        """Any platform endpoint; the path is relative to ``/api/v1``."""
        spec = RequestSpec(method=method.upper(), path=path, query=dict(query or {}), body=body, auth="platform", if_match=if_match, options=options or RequestOptions())
        return self._transport.request(spec).data

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> "PlatformClient":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"
