"""The official Python SDK of the Messaging Platform API.

    from messaging_platform import MessagingClient

    with MessagingClient(api_key="sk_…", tenant_id="83c2…", base_url="https://api.example.com") as client:
        for conversation in client.conversations.list(status="open"):
            print(conversation["id"], conversation["customer"]["name"])

:class:`AsyncMessagingClient` is the same on ``httpx.AsyncClient``; :class:`PlatformClient` (and
:class:`AsyncPlatformClient`) the operator API. :func:`verify_webhook` checks webhook deliveries. The API's
types are in :mod:`messaging_platform.models`.
"""
from ._core import NOT_GIVEN, NotGiven, NotGivenOr, RateLimitInfo, RequestOptions
from ._version import __version__
from .async_client import AsyncMessagingClient, AsyncPlatformClient
from .client import MessagingClient, PlatformClient
from .errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MessagingError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    ValidationError,
    WebhookVerificationError,
)
from .pagination import AsyncPage, AsyncPaginator, Page, Paginator
from .realtime import RealtimeRefused, RealtimeSubscription, subscribe
from .webhooks import sign_webhook, verify_webhook

__all__ = [
    "__version__",
    "MessagingClient",
    "AsyncMessagingClient",
    "PlatformClient",
    "AsyncPlatformClient",
    "RequestOptions",
    "RateLimitInfo",
    "NOT_GIVEN",
    "NotGiven",
    "NotGivenOr",
    "Page",
    "AsyncPage",
    "Paginator",
    "AsyncPaginator",
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
    "verify_webhook",
    "RealtimeSubscription",
    "RealtimeRefused",
    "subscribe",
    "sign_webhook",
]
