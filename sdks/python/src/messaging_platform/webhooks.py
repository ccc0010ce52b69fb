"""Verifying webhook deliveries (Standard Webhooks).

Each delivery carries ``webhook-id``, ``webhook-timestamp`` (Unix seconds) and ``webhook-signature``: one
or more space-separated ``v1,<base64>`` HMAC-SHA256 signatures of ``{id}.{timestamp}.{raw body}``, keyed
with the base64-decoded part of the endpoint's ``whsec_…`` secret. After a secret rotation the old and the
new secret both sign for 24 hours, so a delivery carries two signatures and either secret verifies it.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import WebhookVerificationError
from .models import Event

__all__ = ["verify_webhook", "sign_webhook", "DEFAULT_TOLERANCE_SECONDS"]

#: How far a delivery's timestamp may be from now, either way, by default.
DEFAULT_TOLERANCE_SECONDS = 300

#: A dict (any case), ``http.server``'s / ``email.message.Message`` headers, ``httpx.Headers``, a
#: framework's headers object (Django's ``request.headers``, Flask's ``request.headers``), or (name, value) pairs.
WebhookHeaders = Union[Mapping[str, Any], Iterable[Tuple[str, str]], Any]
RawBody = Union[bytes, bytearray, memoryview, str]

_TIMESTAMP = re.compile(r"^\d{1,15}$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*={0,2}$")


def verify_webhook(
    payload: RawBody,
    headers: WebhookHeaders,
    secret: Union[str, Sequence[str]],
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Union[None, float, datetime] = None,
) -> Event:
    """Checks a delivery's signature and timestamp and returns the parsed event.

    :param payload: the request body exactly as received (bytes, or the decoded text): not re-serialised JSON.
    :param headers: the request's headers (see :data:`WebhookHeaders`).
    :param secret: the endpoint's ``whsec_…`` secret, or several (``[new, old]`` while rolling a new one out):
        any of them may match.
    :param tolerance_seconds: how far the timestamp may be from now, either way (replay protection).
    :param now: the current time (tests): Unix seconds or a datetime.
    :raises WebhookVerificationError: with ``reason`` ``missing_headers``, ``invalid_timestamp``,
        ``timestamp_too_old``, ``timestamp_in_future``, ``invalid_secret``, ``invalid_signature`` or
        ``invalid_payload``.
    """
    delivery_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signature_header = _header(headers, "webhook-signature")
    if not delivery_id or not timestamp or not signature_header:
        raise WebhookVerificationError("missing_headers", "The webhook-id, webhook-timestamp and webhook-signature headers are required.")
    timestamp = timestamp.strip()
    if not _TIMESTAMP.match(timestamp):
        raise WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not a Unix time in seconds.")
    now_seconds = int(_seconds(now))
    sent_at = int(timestamp)
    if now_seconds - sent_at > tolerance_seconds:
        raise WebhookVerificationError("timestamp_too_old", f"The delivery is older than {tolerance_seconds} seconds (a replay?).")
    if sent_at - now_seconds > tolerance_seconds:
        raise WebhookVerificationError("timestamp_in_future", f"The delivery's timestamp is more than {tolerance_seconds} seconds in the future.")

    keys = [_secret_key(s) for s in ([secret] if isinstance(secret, str) else list(secret))]
    if not keys:
        raise WebhookVerificationError("invalid_secret", "No webhook secret was given.")
    body = _bytes(payload)
    signed = f"{delivery_id}.{timestamp}.".encode("utf-8") + body
    signatures = [sig for sig in (_signature(part) for part in signature_header.split(" ")) if sig is not None]

    matched = False
    for key in keys:
        expected = hmac.new(key, signed, hashlib.sha256).digest()
        for signature in signatures:
            # Every candidate is compared (no early exit), each in constant time.
            if hmac.compare_digest(signature, expected):
                matched = True
    if not matched:
        raise WebhookVerificationError("invalid_signature", "No webhook signature matches the secret.")
    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WebhookVerificationError("invalid_payload", "The signed body is not JSON.") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("invalid_payload", "The signed body is not a JSON object.")
    return event  # type: ignore[return-value]


def sign_webhook(payload: RawBody, secret: str, *, id: str, timestamp: Optional[int] = None) -> Dict[str, str]:
    """The headers the API would send with ``payload``: for testing your webhook handler.
    ``timestamp`` is Unix seconds (default now)."""
    sent_at = str(int(time.time()) if timestamp is None else int(timestamp))
    digest = hmac.new(_secret_key(secret), f"{id}.{sent_at}.".encode("utf-8") + _bytes(payload), hashlib.sha256).digest()
    return {"webhook-id": id, "webhook-timestamp": sent_at, "webhook-signature": "v1," + base64.b64encode(digest).decode("ascii")}


def _header(headers: WebhookHeaders, name: str) -> Optional[str]:
    values: List[str] = []
    get_all = getattr(headers, "get_all", None)  # email.message.Message, http.server
    multi_items = getattr(headers, "multi_items", None)  # httpx.Headers
    if callable(get_all):
        values = [str(v) for v in (get_all(name) or [])]
    elif callable(multi_items):
        values = [str(v) for k, v in multi_items() if k.lower() == name]
    else:
        items = headers.items() if hasattr(headers, "items") else headers
        for key, value in items:
            if str(key).lower() != name or value is None:
                continue
            if isinstance(value, (list, tuple)):
                values.extend(str(v) for v in value)
            else:
                values.append(value.decode("latin-1") if isinstance(value, bytes) else str(value))
    return " ".join(values) if values else None


def _seconds(now: Union[None, float, datetime]) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        return now.timestamp()
    return float(now)


def _secret_key(secret: Any) -> bytes:
    if not isinstance(secret, str) or not secret:
        raise WebhookVerificationError("invalid_secret", "The webhook secret is empty.")
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    key = _decode_base64(encoded)
    if not key:
        raise WebhookVerificationError("invalid_secret", "The webhook secret is not a whsec_ base64 secret.")
    return key


def _signature(part: str) -> Optional[bytes]:
    part = part.strip()
    if not part.startswith("v1,"):
        return None  # another scheme (v1a, …): not ours to check
    return _decode_base64(part[3:])


def _decode_base64(text: str) -> Optional[bytes]:
    if not _BASE64.match(text) or len(text) % 4 == 1:
        return None
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _bytes(payload: Any) -> bytes:
    if isinstance(payload, str):
        return payload.encode("utf-8")
    if isinstance(payload, (bytes, bytearray, memoryview)):
        return bytes(payload)
    raise WebhookVerificationError("invalid_payload", "payload must be the raw request body: bytes or str.")
