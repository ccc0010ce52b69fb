"""The conformance suite shared by the official SDKs (sdks/conformance/scenarios.json): one test per
scenario, named after its id, doing what its steps say against the running system."""
from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import pytest

from messaging_platform import (
    ApiError,
    ConflictError,
    MessagingClient,
    PlatformClient,
    PreconditionFailedError,
    RateLimitError,
    WebhookVerificationError,
    verify_webhook,
)
from support import (
    ADMIN_PASSWORD,
    BASE_URL,
    FaultProxy,
    Tenant,
    WebhookReceiver,
    day_ahead,
    eventually,
    new_tenant,
    phone,
    problem,
)

SCENARIOS = Path(__file__).resolve().parents[2] / "conformance" / "scenarios.json"


def test_every_scenario_has_exactly_one_test() -> None:
    ids = [scenario["id"] for scenario in json.loads(SCENARIOS.read_text(encoding="utf-8"))["scenarios"]]
    expected = {f"test_conformance_{scenario_id.replace('-', '_')}" for scenario_id in ids}
    module = sys.modules[__name__]
    present = {name for name in dir(module) if name.startswith("test_conformance_")}
    assert sorted(expected - present) == [], "scenarios without a test"
    assert sorted(present - expected) == [], "tests for scenarios that no longer exist"


def test_conformance_create_tenant(platform: PlatformClient) -> None:
    email = f"owner-{os.urandom(4).hex()}@example.com"
    created = platform.tenants.create(
        name="Conformance Dental", plan="pro", admin={"email": email, "password": ADMIN_PASSWORD, "name": "Olivia Owner"}
    )
    assert created["tenant"]["plan"] == "pro"
    assert created["admin_user"]["email"] == email
    assert created["admin_user"]["role"] == "admin"
    assert created["api_key"]["key"].startswith("sk_")

    with MessagingClient(api_key=created["api_key"]["key"], tenant_id=created["tenant"]["id"], base_url=BASE_URL) as client:
        me = client.auth.me()
    assert me["kind"] == "api_key"
    assert me["tenant"]["id"] == created["tenant"]["id"]
    assert me["tenant"]["name"] == "Conformance Dental"


def test_conformance_sandbox_conversation(client: MessagingClient) -> None:
    sender = phone()
    inbound = client.channels.sandbox_inbound(from_=sender, name="Maria", text="Hi! Can I book a cleaning?")
    assert "conversation" in inbound

    conversation = client.conversations.get(inbound["conversation"]["id"])
    assert conversation["id"] == inbound["conversation"]["id"]
    assert conversation["status"] == "open"
    assert conversation["customer"]["phone"] == sender
    listed = [m for m in conversation["messages"] if m["id"] == inbound["message"]["id"]]
    assert len(listed) == 1, "the inbound message is listed with the conversation"
    assert listed[0]["direction"] == "inbound"
    assert listed[0]["text"] == "Hi! Can I book a cleaning?"


def test_conformance_paginate_conversations() -> None:
    fresh = new_tenant()
    client = fresh.client()
    created = [client.conversations.create(channel="sandbox", customer={"phone": phone()})["id"] for _ in range(5)]

    page = client.conversations.page(limit=2)
    assert len(page.data) == 2
    assert page.has_more
    assert page.next_cursor

    ids = [conversation["id"] for conversation in client.conversations.list(limit=2)]
    assert len(ids) == 5
    assert len(set(ids)) == 5, "each conversation once"
    assert sorted(ids) == sorted(created)
    fresh.close()


def test_conformance_send_and_receipts(tenant: Tenant, client: MessagingClient, proxy: FaultProxy) -> None:
    via_proxy = tenant.client(base_url=proxy.url)
    conversation = via_proxy.channels.sandbox_inbound(from_=phone(), text="Are you open tomorrow?")["conversation"]

    sent = via_proxy.conversations.messages.send(conversation["id"], text="Yes, from 9 to 18.")
    assert sent["status"] == "queued"
    assert proxy.to("POST", "/conversations/")[-1].status == 202

    def read() -> object:
        for message in client.conversations.messages.page(conversation["id"], limit=5):
            if message["id"] == sent["id"] and message["status"] == "read":
                return message
        return None

    message = eventually(read, timeout=15)
    assert message["delivered_at"]
    assert message["read_at"]


def test_conformance_booking_conflict(client: MessagingClient) -> None:
    customer = client.channels.sandbox_inbound(from_=phone(), name="Bea", text="I want to book")["conversation"]["customer"]
    day = day_ahead(1)
    booking = client.bookings.create(
        customer={"id": customer["id"]},
        service="Dental cleaning",
        resource_id="chair-conformance",
        start_at=f"{day}T10:00:00Z",
        end_at=f"{day}T10:45:00Z",
        timezone="UTC",
    )
    assert booking["status"] == "confirmed"

    with pytest.raises(ConflictError) as raised:
        client.bookings.create(
            customer={"id": customer["id"]},
            service="Check-up",
            resource_id="chair-conformance",
            start_at=f"{day}T10:30:00Z",
            end_at=f"{day}T11:00:00Z",
            timezone="UTC",
        )
    assert raised.value.status == 409
    assert raised.value.code == "booking_conflict"
    assert isinstance(raised.value.request_id, str) and raised.value.request_id
    # The problem names the booking in the way.
    assert raised.value.problem["conflicting_booking"] == {"id": booking["id"], "resource_id": "chair-conformance", "start_at": booking["start_at"], "end_at": booking["end_at"]}


def test_conformance_stale_version(client: MessagingClient) -> None:
    conversation = client.conversations.create(channel="sandbox", customer={"phone": phone()}, priority="normal")
    current = client.conversations.get(conversation["id"])

    updated = client.conversations.update(conversation["id"], status="pending", if_match=current["version"])
    assert updated["version"] == current["version"] + 1
    assert updated["status"] == "pending"

    with pytest.raises(ApiError) as raised:
        client.conversations.update(conversation["id"], priority="urgent", if_match=current["version"])
    assert isinstance(raised.value, PreconditionFailedError)
    assert raised.value.status == 412
    assert raised.value.code == "version_mismatch"

    after = client.conversations.get(conversation["id"])
    assert after["version"] == updated["version"]
    assert after["priority"] == "normal"
    assert after["status"] == "pending"


def test_conformance_analyze(client: MessagingClient) -> None:
    analysis = client.ai.analyze(text="I want to book an appointment for tomorrow at 3pm")
    assert analysis["intent"]["name"] == "book_appointment"
    assert analysis["sentiment"]["label"] in ("negative", "neutral", "positive")
    assert analysis["language"] == "en"
    datetimes = [entity for entity in analysis["entities"] if entity["type"] == "datetime"]
    assert len(datetimes) == 1
    assert "T15:00:00" in datetimes[0]["value"]


def test_conformance_webhook_verify() -> None:
    receiver = WebhookReceiver()
    fresh = new_tenant()
    try:
        client = fresh.client()
        endpoint = client.webhooks.create(url=receiver.url(), events=["conversation.*"])
        secret = endpoint["webhook_secret"]

        inbound = client.channels.sandbox_inbound(from_=phone(), text="Hello webhooks")
        conversation_id = inbound["conversation"]["id"]
        delivery = eventually(lambda: receiver.find('"type":"conversation.created"', conversation_id))

        event = verify_webhook(delivery.body, delivery.headers, secret)
        assert event["type"] == "conversation.created"
        assert event["data"]["conversation"]["id"] == conversation_id  # type: ignore[typeddict-item]
        assert event["id"] == delivery.headers["webhook-id"]
        assert event["tenant_id"] == fresh.tenant_id

        altered = delivery.body.replace(b"conversation.created", b"conversation.updated")
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(altered, delivery.headers, secret)
        assert refused.value.reason == "invalid_signature"
        wrong_secret = "whsec_" + base64.b64encode(os.urandom(32)).decode()
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(delivery.body, delivery.headers, wrong_secret)
        assert refused.value.reason == "invalid_signature"
    finally:
        receiver.close()
        fresh.close()


def test_conformance_rate_limit_retry(tenant: Tenant) -> None:
    proxy = FaultProxy(decide=lambda request, index: ("respond", 429, {"retry-after": "1"}, problem(429, "rate_limited")) if index == 0 else ("forward",))
    try:
        me = tenant.client(base_url=proxy.url).auth.me()
        assert me["tenant"]["id"] == tenant.tenant_id
        requests = proxy.requests
        assert len(requests) == 2, "succeeded on its second attempt"
        assert [r.status for r in requests] == [429, 200]
        # The scenario's point: the retry waited out Retry-After (a lower bound, measured by the proxy).
        assert requests[1].at - requests[0].at >= 1.0

        proxy.reset()
        with pytest.raises(RateLimitError) as raised:
            tenant.client(base_url=proxy.url, max_retries=0).auth.me()
        assert raised.value.status == 429
        assert raised.value.retry_after == 1
        assert len(proxy.requests) == 1
    finally:
        proxy.close()
