"""Errors the SDK raises.

Every error answer of the API is an :class:`ApiError` built from its RFC 9457 problem+json body, with a
subclass per status a caller may want to handle on its own. No answer at all is an
:class:`ApiConnectionError` (:class:`ApiTimeoutError` after the configured timeout).
"""
from __future__ import annotations

import email.utils
import json
import re
import time
from typing import Any, Dict, List, Mapping, Optional, Tuple, Type

import httpx

from .models import FieldError

__all__ = [
    "MessagingError",
    "ApiError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "PreconditionFailedError",
    "ValidationError",
    "RateLimitError",
    "ServerError",
    "ApiConnectionError",
    "ApiTimeoutError",
    "WebhookVerificationError",
    "error_from_response",
    "parse_retry_after",
]


class MessagingError(Exception):
    """Base class of everything the SDK raises on purpose."""


class ApiError(MessagingError):
    """The API answered with an error status."""

    #: HTTP status.
    status: int
    #: Machine-readable problem code (``booking_conflict``, ``validation_failed`` …), or ``http_<status>``
    #: when the answer was not a problem (a proxy's error page).
    code: str
    #: Human-readable explanation.
    detail: str
    #: ``X-Request-Id``: quote it when reporting a problem.
    request_id: Optional[str]
    #: Invalid fields (``[{"path": "customer.phone", "message": "…"}]``) on validation problems; else empty.
    errors: List[FieldError]
    #: The problem type URI.
    type: Optional[str]
    #: The status text.
    title: Optional[str]
    #: The whole problem body, extension members included.
    problem: Dict[str, Any]
    #: The response headers.
    headers: httpx.Headers

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Any = None) -> None:
        self.status = status
        self.problem = dict(problem)
        self.headers = httpx.Headers(headers or {})
        code = problem.get("code")
        self.code = code if isinstance(code, str) else f"http_{status}"
        detail = problem.get("detail")
        title = problem.get("title")
        self.detail = detail if isinstance(detail, str) else title if isinstance(title, str) else f"HTTP {status}"
        request_id = problem.get("request_id")
        self.request_id = request_id if isinstance(request_id, str) else self.headers.get("x-request-id")
        errors = problem.get("errors")
        self.errors = list(errors) if isinstance(errors, list) else []
        self.type = problem.get("type") if isinstance(problem.get("type"), str) else None
        self.title = title if isinstance(title, str) else None
        super().__init__(f"{status} {self.code}: {self.detail}" + (f" (request id {self.request_id})" if self.request_id else ""))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.status, self.problem, list(self.headers.multi_items())))


class BadRequestError(ApiError):
    """400: a malformed request or query (``invalid_query``, ``invalid_cursor``, ``not_a_session`` …)."""


class AuthenticationError(ApiError):
    """401: missing, wrong, expired or revoked credentials (``invalid_api_key``, ``session_revoked`` …)."""


class PermissionDeniedError(ApiError):
    """403: another tenant's credential, a suspended tenant, or a role that is not allowed."""


class NotFoundError(ApiError):
    """404: no such resource (another tenant's included)."""


class ConflictError(ApiError):
    """409: a conflict with the current state (``booking_conflict``, ``conversation_exists`` …)."""


class PreconditionFailedError(ApiError):
    """412: ``If-Match`` named a version that is no longer current (``version_mismatch``)."""


class ValidationError(ApiError):
    """422: the body is JSON but not acceptable; :attr:`errors` names the fields."""


class RateLimitError(ApiError):
    """429: the tenant's hourly limit (or a login limit) is used up."""

    #: Seconds to wait before trying again (``Retry-After``), when the API said.
    retry_after: Optional[float]

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Any = None) -> None:
        super().__init__(status, problem, headers)
        self.retry_after = parse_retry_after(self.headers.get("retry-after"))


class ServerError(ApiError):
    """5xx: the API failed, or a dependency is throttled (503 ``dependency_throttled``)."""

    #: Seconds to wait before trying again (``Retry-After``), when the API said.
    retry_after: Optional[float]

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Any = None) -> None:
        super().__init__(status, problem, headers)
        self.retry_after = parse_retry_after(self.headers.get("retry-after"))


class ApiConnectionError(MessagingError):
    """No answer: DNS, connection refused or reset, TLS, or a connection dropped before the response."""


class ApiTimeoutError(ApiConnectionError):
    """No answer within the configured ``timeout``."""


class WebhookVerificationError(MessagingError):
    """A webhook delivery failed verification. :attr:`reason` says why: ``missing_headers``,
    ``invalid_timestamp``, ``timestamp_too_old``, ``timestamp_in_future``, ``invalid_signature``,
    ``invalid_secret`` or ``invalid_payload``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.reason, str(self)))


_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    422: ValidationError,
    429: RateLimitError,
}


def error_from_response(status: int, problem: Mapping[str, Any], headers: Any = None) -> ApiError:
    """The error class for a status and its problem body."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ApiError)
    return cls(status, problem, headers)


def problem_of(status: int, reason: str, text: str) -> Dict[str, Any]:
    """The problem in an error response's body; something problem-shaped when a proxy answered instead."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        return parsed
    fallback: Dict[str, Any] = {"status": status, "title": reason or f"HTTP {status}"}
    if text:
        fallback["detail"] = text[:500]
    return fallback


_SECONDS = re.compile(r"^\d+(\.\d+)?$")


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` in seconds: delta-seconds (``"1"`` is ``1``) or an HTTP date; None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if _SECONDS.match(text):
        number = float(text)
        return int(number) if number.is_integer() else number
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if at is None:
        return None
    return max(0.0, at.timestamp() - (time.time() if now is None else now))
