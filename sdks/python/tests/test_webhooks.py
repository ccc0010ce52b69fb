"""verify_webhook: Standard Webhooks signatures (rotation with several signatures, timestamp tolerance),
on signed test payloads and on real deliveries from the running system to a local HTTPS receiver; and
the webhook endpoints and deliveries resources."""
from __future__ import annotations

import base64
import hashlib
import hmac
import time
from datetime import datetime, timedelta, timezone
from email.message import Message
from typing import Any, Dict, Iterator

import httpx
import pytest

from messaging_platform import NotFoundError, PreconditionFailedError, WebhookVerificationError, sign_webhook, verify_webhook
from support import WebhookReceiver, eventually, new_tenant, phone

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
OTHER = "whsec_" + base64.b64encode(b"fedcba9876543210fedcba9876543210").decode()
BODY = (
    '{"id":"evt_1","type":"webhook.test","created_at":"2026-11-21T22:22:45.841Z","tenant_id":"t","api_version":"v1",'
    '"data":{"webhook_id":"whk_1"}}'
)


def reason(*args: Any, **kwargs: Any) -> str:
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(*args, **kwargs)
    return raised.value.reason


def test_returns_the_parsed_event_for_a_valid_signature_from_bytes_or_text() -> None:
    headers = sign_webhook(BODY, SECRET, id="msg_1")
    event = verify_webhook(BODY, headers, SECRET)
    assert event["type"] == "webhook.test"
    assert event["data"] == {"webhook_id": "whk_1"}
    assert verify_webhook(BODY.encode(), headers, SECRET)["id"] == "evt_1"
    assert verify_webhook(bytearray(BODY.encode()), headers, SECRET)["id"] == "evt_1"


def test_reads_headers_in_any_case_from_dicts_pairs_httpx_and_email_messages() -> None:
    headers = sign_webhook(BODY, SECRET, id="msg_1")
    message = Message()
    for name, value in headers.items():
        message[name.title()] = value
    forms = [
        {name.upper(): value for name, value in headers.items()},
        list(headers.items()),
        httpx.Headers(headers),
        message,
        {name: [value] for name, value in headers.items()},
    ]
    for form in forms:
        assert verify_webhook(BODY, form, SECRET)["id"] == "evt_1"


def test_accepts_any_of_several_signatures_with_either_secret() -> None:
    old = sign_webhook(BODY, OTHER, id="msg_1")
    new = sign_webhook(BODY, SECRET, id="msg_1", timestamp=int(old["webhook-timestamp"]))
    both = {**new, "webhook-signature": f"{old['webhook-signature']} {new['webhook-signature']}"}
    assert verify_webhook(BODY, both, SECRET)["id"] == "evt_1"
    assert verify_webhook(BODY, both, OTHER)["id"] == "evt_1"
    assert verify_webhook(BODY, new, [OTHER, SECRET])["id"] == "evt_1"


def test_rejects_a_wrong_secret_a_changed_body_id_or_timestamp_and_other_versions() -> None:
    headers = sign_webhook(BODY, SECRET, id="msg_1")
    assert reason(BODY, headers, OTHER) == "invalid_signature"
    assert reason(BODY.replace("whk_1", "whk_2"), headers, SECRET) == "invalid_signature"
    assert reason(BODY, {**headers, "webhook-id": "msg_2"}, SECRET) == "invalid_signature"
    earlier = str(int(headers["webhook-timestamp"]) - 1)
    assert reason(BODY, {**headers, "webhook-timestamp": earlier}, SECRET) == "invalid_signature"
    v2 = {**headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,")}
    assert reason(BODY, v2, SECRET) == "invalid_signature"
    assert reason(BODY, {**headers, "webhook-signature": "v1,not-base64!"}, SECRET) == "invalid_signature"


def test_rejects_timestamps_beyond_the_tolerance_and_accepts_them_within_it() -> None:
    now = int(time.time())
    stale = sign_webhook(BODY, SECRET, id="msg_1", timestamp=now - 301)
    assert reason(BODY, stale, SECRET, now=now) == "timestamp_too_old"
    assert verify_webhook(BODY, stale, SECRET, tolerance_seconds=400, now=now)["id"] == "evt_1"
    future = sign_webhook(BODY, SECRET, id="msg_1", timestamp=now + 301)
    assert reason(BODY, future, SECRET, now=now) == "timestamp_in_future"
    later = datetime.fromtimestamp(now, timezone.utc) + timedelta(seconds=300)
    assert verify_webhook(BODY, future, SECRET, now=later)["id"] == "evt_1"


def test_rejects_missing_headers_a_bad_timestamp_a_bad_secret_and_a_body_that_is_not_json() -> None:
    headers = sign_webhook(BODY, SECRET, id="msg_1")
    assert reason(BODY, {k: v for k, v in headers.items() if k != "webhook-signature"}, SECRET) == "missing_headers"
    assert reason(BODY, {**headers, "webhook-timestamp": "soon"}, SECRET) == "invalid_timestamp"
    assert reason(BODY, headers, "") == "invalid_secret"
    assert reason(BODY, headers, "whsec_***") == "invalid_secret"
    assert reason(BODY, headers, []) == "invalid_secret"
    not_json = sign_webhook("not json", SECRET, id="msg_1")
    assert reason("not json", not_json, SECRET) == "invalid_payload"
    array = sign_webhook("[1]", SECRET, id="msg_1")
    assert reason("[1]", array, SECRET) == "invalid_payload"


def test_sign_follows_the_standard_webhooks_scheme() -> None:
    headers = sign_webhook(BODY, SECRET, id="msg_1", timestamp=1_700_000_000)
    key = base64.b64decode(SECRET[len("whsec_"):])
    expected = base64.b64encode(hmac.new(key, f"msg_1.1700000000.{BODY}".encode(), hashlib.sha256).digest()).decode()
    assert headers == {"webhook-id": "msg_1", "webhook-timestamp": "1700000000", "webhook-signature": f"v1,{expected}"}


# Against the running system ----------------------------------------------------------------------


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    made = WebhookReceiver()
    yield made
    made.close()


def test_endpoints_real_deliveries_verification_and_secret_rotation(receiver: WebhookReceiver) -> None:
    fresh = new_tenant()
    client = fresh.client()
    created = client.webhooks.create(url=receiver.url(), events=["conversation.*"], description="SDK test")
    assert created["webhook_secret"].startswith("whsec_")
    assert created["is_active"] is True
    got = client.webhooks.get(created["id"])
    assert got["url"] == receiver.url()
    assert "webhook_secret" not in got
    assert [w["id"] for w in client.webhooks.list()] == [created["id"]]
    updated = client.webhooks.update(created["id"], events=["conversation.*", "webhook.test"], description=None, if_match=got["version"])
    assert updated["events"] == ["conversation.*", "webhook.test"]
    assert updated.get("description") is None

    inbound = client.channels.sandbox_inbound(from_=phone(), name="Hook", text="Hello webhooks")
    delivery = eventually(lambda: receiver.find(inbound["conversation"]["id"], '"conversation.created"'))
    event = verify_webhook(delivery.body, delivery.headers, created["webhook_secret"])
    assert event["type"] == "conversation.created"
    assert event["data"]["conversation"]["id"] == inbound["conversation"]["id"]  # type: ignore[typeddict-item]
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(delivery.body, delivery.headers, created["webhook_secret"], tolerance_seconds=0, now=time.time() + 5)
    assert raised.value.reason == "timestamp_too_old"

    before = client.webhooks.get(created["id"])
    with pytest.raises(PreconditionFailedError):
        client.webhooks.rotate_secret(created["id"], if_match=before["version"] + 1)
    rotated = client.webhooks.rotate_secret(created["id"], if_match=before["version"])
    assert rotated["version"] == before["version"] + 1
    assert rotated["webhook_secret"] != created["webhook_secret"]
    assert rotated["previous_secret_expires_at"]

    # Rotation reaches the signer within about a second: until a test delivery carries both signatures.
    def rotated_delivery() -> Any:
        sent = client.webhooks.test(created["id"])
        assert sent["delivery_id"].startswith("dlv_") and sent["event"]["type"] == "webhook.test"
        received = eventually(lambda: receiver.find(f'"id":"{sent["event"]["id"]}"'))
        return received if len(received.headers["webhook-signature"].split(" ")) == 2 else None

    delivery = eventually(rotated_delivery, timeout=10, interval=0.3)
    with_new = verify_webhook(delivery.body, delivery.headers, rotated["webhook_secret"])
    with_old = verify_webhook(delivery.body, delivery.headers, created["webhook_secret"])
    assert with_new == with_old
    assert with_new["type"] == "webhook.test"
    assert with_new["data"]["webhook_id"] == created["id"]  # type: ignore[typeddict-item]
    assert verify_webhook(delivery.body, dict(delivery.headers.items()), [OTHER, rotated["webhook_secret"]]) == with_new

    current = client.webhooks.get(created["id"])
    with pytest.raises(PreconditionFailedError):
        client.webhooks.delete(created["id"], if_match=current["version"] - 1)
    client.webhooks.delete(created["id"], if_match=current["version"])
    with pytest.raises(NotFoundError):
        client.webhooks.get(created["id"])
    with pytest.raises(NotFoundError):
        client.webhooks.delete(created["id"])
    fresh.close()


def test_failed_deliveries_detail_retry_recover_and_the_per_endpoint_list(receiver: WebhookReceiver) -> None:
    fresh = new_tenant()
    client = fresh.client()
    endpoint = client.webhooks.create(url=receiver.url(), events=["webhook.test"])
    since = datetime.now(timezone.utc) - timedelta(seconds=1)
    receiver.behaviour = (500, "down")
    first = client.webhooks.test(endpoint["id"])
    second = client.webhooks.test(endpoint["id"])

    # Six attempts, one second apart in the test runtime, then the deliveries are marked failed.
    def both_failed() -> bool:
        failed: Dict[str, str] = {d["id"]: d["status"] for d in client.webhook_deliveries.list()}
        return all(failed.get(d["delivery_id"]) == "failed" for d in (first, second))

    eventually(both_failed, timeout=60, interval=0.5)
    narrowed = client.webhook_deliveries.list(webhook_id=endpoint["id"], event_type="webhook.test", since=since, limit=1)
    assert sorted(d["id"] for d in narrowed) == sorted([first["delivery_id"], second["delivery_id"]])
    # Each filter can exclude them: another endpoint, another type, events before ``since``.
    assert list(client.webhook_deliveries.list(webhook_id="whk_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")) == []
    assert list(client.webhook_deliveries.list(event_type="booking.created")) == []
    assert list(client.webhook_deliveries.list(until=since)) == []
    detail = client.webhook_deliveries.get(first["delivery_id"])
    assert detail["status"] == "failed"
    assert len(detail["attempts"]) == 6
    assert detail["attempts"][0]["status_code"] == 500
    assert detail["payload"]["id"] == first["event"]["id"]

    receiver.behaviour = (204, "")
    replay = client.webhook_deliveries.retry(first["delivery_id"])
    assert replay == {"delivery_id": first["delivery_id"], "status": "pending", "cycle": 2}
    eventually(lambda: client.webhook_deliveries.get(first["delivery_id"])["status"] == "succeeded", timeout=30)

    recovered = client.webhooks.recover(endpoint["id"], since=since)
    assert recovered["replayed"] == 1
    assert recovered["has_more"] is False
    eventually(lambda: client.webhook_deliveries.get(second["delivery_id"])["status"] == "succeeded", timeout=30)

    succeeded = [d["id"] for d in client.webhooks.deliveries(endpoint["id"], status="succeeded")]
    assert first["delivery_id"] in succeeded and second["delivery_id"] in succeeded
    assert client.webhooks.deliveries_page(endpoint["id"], limit=1).limit == 1
    assert client.webhook_deliveries.list(status="failed").to_list() == []
    fresh.close()
