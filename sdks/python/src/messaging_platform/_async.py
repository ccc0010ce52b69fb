"""The asynchronous I/O: drives the shared request loop with ``httpx.AsyncClient`` and ``asyncio.sleep``."""
from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import httpx

from ._core import (
    ApiResponse,
    Authorize,
    BaseTransport,
    Flow,
    RequestOptions,
    RequestSpec,
    Send,
    Sleep,
    build_spec,
)
from ._session import DEFAULT_REFRESH_LEEWAY, SessionCallback, SessionState
from .errors import AuthenticationError
from .models import Tokens
from .pagination import AsyncPaginator, page_query


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


async def run_async(flow: Flow, http: httpx.AsyncClient) -> ApiResponse:
    """Runs the request loop: performs each action it yields and sends back the outcome (or the error)."""
    try:
        action = next(flow)
        while True:
            try:
                if isinstance(action, Send):
                    outcome: Any = await http.request(action.method, action.url, headers=action.headers, content=action.content, timeout=action.timeout)
                elif isinstance(action, Sleep):
                    await asyncio.sleep(action.seconds)
                    outcome = None
                elif isinstance(action, Authorize):
                    outcome = await _maybe_await(action.credentials.authorize())
                else:
                    outcome = await _maybe_await(action.credentials.recover(action.token))
            except Exception as error:  # handed to the loop, which decides (and re-raises what it does not handle)
                action = flow.throw(error)
            else:
                action = flow.send(outcome)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        flow.close()


class AsyncTransport(BaseTransport):
    def __init__(self, *, http_client: Optional[httpx.AsyncClient] = None, **options: Any) -> None:
        super().__init__(**options)
        if http_client is not None and not isinstance(http_client, httpx.AsyncClient):
            raise TypeError("http_client must be an httpx.AsyncClient (use MessagingClient for an httpx.Client)")
        self.owns_http = http_client is None
        self.http = http_client or httpx.AsyncClient(follow_redirects=False)

    async def request(self, spec: RequestSpec) -> ApiResponse:
        return await run_async(self.flow(spec), self.http)

    async def close(self) -> None:
        if self.owns_http:
            await self.http.aclose()


class AsyncSession:
    """Session credentials: refresh before expiry and once after a 401; concurrent tasks share one refresh."""

    can_recover = True

    def __init__(
        self,
        transport: AsyncTransport,
        tokens: Tokens,
        *,
        received_at: Optional[float] = None,
        refresh_leeway: float = DEFAULT_REFRESH_LEEWAY,
        on_session_change: Optional[SessionCallback] = None,
    ) -> None:
        self.transport = transport
        self.state = SessionState(tokens, received_at, refresh_leeway)
        self.on_session_change = on_session_change
        # Made on first use, inside the running event loop (Python 3.9 binds a Lock to the loop it is made in).
        self._lock: Optional[asyncio.Lock] = None

    @property
    def tokens(self) -> Optional[Tokens]:
        return self.state.tokens

    @property
    def lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def authorize(self) -> Tuple[Dict[str, str], str]:
        tokens = self.state.require()
        if self.state.due():
            tokens = await self.refresh(stale_refresh_token=tokens["refresh_token"])
        return self.state.headers(tokens)

    async def recover(self, rejected_token: Optional[str]) -> bool:
        refresh, stale = self.state.recover_decision(rejected_token)
        if not refresh:
            return self.state.tokens is not None
        try:
            await self.refresh(stale_refresh_token=stale)
        except AuthenticationError:
            return False  # the session is over: the 401 stands
        return True

    async def refresh(self, stale_refresh_token: Optional[str] = None) -> Tokens:
        """Rotates the token pair (one refresh at a time; a task whose pair was rotated meanwhile gets the new one)."""
        async with self.lock:
            if self.state.already_refreshed(stale_refresh_token):
                return self.state.require()
            sent_at = time.time()
            response = await self.transport.request(self.state.refresh_spec())
            tokens = self.state.apply(response.data, sent_at)
        if self.on_session_change is not None:
            await _maybe_await(self.on_session_change(tokens))
        return tokens

    async def clear(self) -> None:
        self.state.tokens = None
        if self.on_session_change is not None:
            await _maybe_await(self.on_session_change(None))


class AsyncResource:
    """Base of the asynchronous resources: builds an operation's request and sends it."""

    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    async def _call(
        self,
        operation_id: str,
        path_args: Sequence[str] = (),
        params: Optional[Mapping[str, Any]] = None,
        *,
        if_match: Union[int, str, None] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        spec = build_spec(operation_id, path_args, params, if_match=if_match, options=options)
        return (await self._transport.request(spec)).data

    def _list(self, operation_id: str, path_args: Sequence[str], params: Mapping[str, Any], options: Optional[RequestOptions]) -> AsyncPaginator[Any]:
        filters = dict(params)
        cursor = filters.pop("cursor", None)

        async def fetch(at: Optional[str]) -> Any:
            return await self._call(operation_id, path_args, page_query(filters, at), options=options)

        return AsyncPaginator(fetch, cursor if isinstance(cursor, str) and cursor else None)
