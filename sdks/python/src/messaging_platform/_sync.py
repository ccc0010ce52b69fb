"""The synchronous I/O: drives the shared request loop with ``httpx.Client`` and ``time.sleep``."""
from __future__ import annotations

import threading
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
from .pagination import Paginator, page_query


def run_sync(flow: Flow, http: httpx.Client) -> ApiResponse:
    """Runs the request loop: performs each action it yields and sends back the outcome (or the error)."""
    try:
        action = next(flow)
        while True:
            try:
                if isinstance(action, Send):
                    outcome: Any = http.request(action.method, action.url, headers=action.headers, content=action.content, timeout=action.timeout)
                elif isinstance(action, Sleep):
                    time.sleep(action.seconds)
                    outcome = None
                elif isinstance(action, Authorize):
                    outcome = action.credentials.authorize()
                else:
                    outcome = action.credentials.recover(action.token)
            except Exception as error:  # handed to the loop, which decides (and re-raises what it does not handle)
                action = flow.throw(error)
            else:
                action = flow.send(outcome)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        flow.close()


class SyncTransport(BaseTransport):
    def __init__(self, *, http_client: Optional[httpx.Client] = None, **options: Any) -> None:
        super().__init__(**options)
        if http_client is not None and not isinstance(http_client, httpx.Client):
            raise TypeError("http_client must be an httpx.Client (use AsyncMessagingClient for an httpx.AsyncClient)")
        self.owns_http = http_client is None
        self.http = http_client or httpx.Client(follow_redirects=False)

    def request(self, spec: RequestSpec) -> ApiResponse:
        return run_sync(self.flow(spec), self.http)

    def close(self) -> None:
        if self.owns_http:
            self.http.close()


class SyncSession:
    """Session credentials: refresh before expiry and once after a 401, one refresh at a time."""

    can_recover = True

    def __init__(
        self,
        transport: SyncTransport,
        tokens: Tokens,
        *,
        received_at: Optional[float] = None,
        refresh_leeway: float = DEFAULT_REFRESH_LEEWAY,
        on_session_change: Optional[SessionCallback] = None,
    ) -> None:
        self.transport = transport
        self.state = SessionState(tokens, received_at, refresh_leeway)
        self.on_session_change = on_session_change
        self.lock = threading.Lock()

    @property
    def tokens(self) -> Optional[Tokens]:
        return self.state.tokens

    def authorize(self) -> Tuple[Dict[str, str], str]:
        tokens = self.state.require()
        if self.state.due():
            tokens = self.refresh(stale_refresh_token=tokens["refresh_token"])
        return self.state.headers(tokens)

    def recover(self, rejected_token: Optional[str]) -> bool:
        refresh, stale = self.state.recover_decision(rejected_token)
        if not refresh:
            return self.state.tokens is not None
        try:
            self.refresh(stale_refresh_token=stale)
        except AuthenticationError:
            return False  # the session is over: the 401 stands
        return True

    def refresh(self, stale_refresh_token: Optional[str] = None) -> Tokens:
        """Rotates the token pair (one refresh at a time; a caller whose pair was rotated meanwhile gets the new one)."""
        with self.lock:
            if self.state.already_refreshed(stale_refresh_token):
                return self.state.require()
            sent_at = time.time()
            response = self.transport.request(self.state.refresh_spec())
            tokens = self.state.apply(response.data, sent_at)
        if self.on_session_change is not None:
            self.on_session_change(tokens)
        return tokens

    def clear(self) -> None:
        self.state.tokens = None
        if self.on_session_change is not None:
            self.on_session_change(None)


class SyncResource:
    """Base of the synchronous resources: builds an operation's request and sends it."""

    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def _call(
        self,
        operation_id: str,
        path_args: Sequence[str] = (),
        params: Optional[Mapping[str, Any]] = None,
        *,
        if_match: Union[int, str, None] = None,
        options: Optional[RequestOptions] = None,
    ) -> Any:
        spec = build_spec(operation_id, path_args, params, if_match=if_match, options=options)
        return self._transport.request(spec).data

    def _list(self, operation_id: str, path_args: Sequence[str], params: Mapping[str, Any], options: Optional[RequestOptions]) -> Paginator[Any]:
        filters = dict(params)
        cursor = filters.pop("cursor", None)

        def fetch(at: Optional[str]) -> Any:
            return self._call(operation_id, path_args, page_query(filters, at), options=options)

        return Paginator(fetch, cursor if isinstance(cursor, str) and cursor else None)
