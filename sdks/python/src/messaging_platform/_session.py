"""A login session's state and decisions, shared by the synchronous and the asynchronous session.

The access token (30 minutes) is refreshed ``refresh_leeway`` seconds before it expires, and once after a
401. The API treats a refresh token presented twice as stolen and ends the session, so one refresh runs at a
time and a caller whose refresh token was rotated meanwhile just uses the new pair; a refresh whose answer
was lost is never retried (the ``refused`` retry policy).
"""
from __future__ import annotations

import time
from datetime import datetime
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ._core import RequestOptions, RequestSpec, build_spec
from .errors import MessagingError
from .models import Tokens

#: Called with the new tokens after login and every refresh (to persist them), and with None after logout.
#: The asynchronous client also accepts a coroutine function.
SessionCallback = Callable[[Optional[Tokens]], Any]

DEFAULT_REFRESH_LEEWAY = 60.0


def parse_instant(text: Any) -> Optional[float]:
    """Unix seconds of an ISO 8601 instant (``2026-11-21T22:22:45.841Z``), or None."""
    if not isinstance(text, str) or not text:
        return None
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    # Python 3.9's fromisoformat wants 3 or 6 fraction digits.
    if "." in value:
        head, _, rest = value.partition(".")
        digits = ""
        while rest and rest[0].isdigit():
            digits, rest = digits + rest[0], rest[1:]
        value = f"{head}.{(digits + '000000')[:6]}{rest}"
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return parsed.timestamp()


def check_tokens(tokens: Any) -> Tokens:
    if not isinstance(tokens, Mapping) or not all(isinstance(tokens.get(k), str) and tokens.get(k) for k in ("access_token", "refresh_token", "tenant_id")):
        raise MessagingError("from_session needs the tokens of a login (access_token, refresh_token, tenant_id).")
    return dict(tokens)  # type: ignore[return-value]


class SessionState:
    """The current tokens and when the access token expires, by this machine's clock."""

    def __init__(self, tokens: Tokens, received_at: Optional[float] = None, refresh_leeway: float = DEFAULT_REFRESH_LEEWAY) -> None:
        self.tokens: Optional[Tokens] = tokens
        self.deadline = self.deadline_of(tokens, received_at)
        if isinstance(refresh_leeway, bool) or not isinstance(refresh_leeway, (int, float)) or refresh_leeway < 0:
            raise MessagingError("refresh_leeway must be a number of seconds >= 0.")
        self.leeway = float(refresh_leeway)

    @staticmethod
    def deadline_of(tokens: Tokens, received_at: Optional[float]) -> float:
        expires_in = tokens.get("expires_in")
        if received_at is not None and isinstance(expires_in, (int, float)) and not isinstance(expires_in, bool):
            return received_at + expires_in
        at = parse_instant(tokens.get("expires_at"))
        return 0.0 if at is None else at

    def require(self) -> Tokens:
        if self.tokens is None:
            raise MessagingError("This client has logged out; log in again.")
        return self.tokens

    def due(self) -> bool:
        """Whether the access token is (nearly) expired."""
        return time.time() >= self.deadline - self.leeway

    def already_refreshed(self, stale_refresh_token: Optional[str]) -> bool:
        """True when another caller rotated the tokens since ``stale_refresh_token`` was read."""
        tokens = self.require()
        return stale_refresh_token is not None and tokens["refresh_token"] != stale_refresh_token

    def refresh_spec(self) -> RequestSpec:
        tokens = self.require()
        spec = build_spec("refreshSession", (), {"refresh_token": tokens["refresh_token"]})
        spec.retry = "refused"
        spec.headers = {"X-Tenant-ID": tokens["tenant_id"]}
        return spec

    @staticmethod
    def logout_spec(options: Optional[RequestOptions] = None) -> RequestSpec:
        """``POST /auth/logout``: ends the session the request is authenticated with."""
        return build_spec("logout", (), {}, options=options)

    def apply(self, tokens: Tokens, sent_at: float) -> Tokens:
        if self.tokens is None:
            # Logged out while the refresh ran: keep it that way.
            raise MessagingError("The session was logged out.")
        self.tokens = tokens
        self.deadline = self.deadline_of(tokens, sent_at)
        return tokens

    def recover_decision(self, rejected_token: Optional[str]) -> Tuple[bool, Optional[str]]:
        """After a 401 with ``rejected_token``: (whether to refresh, the refresh token to rotate).
        No refresh is needed when another caller has refreshed meanwhile."""
        tokens = self.tokens
        if tokens is None:
            return False, None
        if rejected_token is not None and tokens["access_token"] != rejected_token:
            return False, None
        return True, tokens["refresh_token"]

    @staticmethod
    def headers(tokens: Tokens) -> Tuple[Dict[str, str], str]:
        return {"Authorization": f"Bearer {tokens['access_token']}", "X-Tenant-ID": tokens["tenant_id"]}, tokens["access_token"]
