"""The synchronous client's resources against the running system: channels, conversations and messages,
customers, saved replies, bookings, schedules (opening hours), AI, events, API keys, users, tenants (operator API), credential errors, the raw request method."""
from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from messaging_platform import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MessagingClient,
    MessagingError,
    NotFoundError,
    PermissionDeniedError,
    PlatformClient,
    PreconditionFailedError,
    ValidationError,
)
from support import ADMIN_PASSWORD, BASE_URL, RUNTIME, Tenant, day_ahead, eventually, new_tenant, phone, platform_client

OPENAPI = Path(__file__).resolve().parents[3] / "openapi.json"


def test_channels_list_the_sandbox_and_a_repeated_provider_id_is_a_duplicate(client: MessagingClient) -> None:
    fresh = new_tenant()
    assert fresh.client().channels.list() == [{"channel": "sandbox"}]
    fresh.close()
    sender = phone()
    result = client.channels.sandbox_inbound(from_=sender, name="Maria", text="Hi!", provider_message_id=f"p-{sender}")
    assert result["conversation"]["customer"]["phone"] == sender  # type: ignore[typeddict-item]
    assert result["message"]["direction"] == "inbound"  # type: ignore[typeddict-item]
    again = client.channels.sandbox_inbound(from_=sender, text="Hi!", provider_message_id=f"p-{sender}")
    assert again == {"duplicate": True}


def test_connect_whatsapp_connects_a_number_the_graph_api_vouches_for(client: MessagingClient) -> None:
    number = f"7{secrets.randbelow(10**10):010d}"
    connected = client.channels.connect_whatsapp(
        phone_number_id=number, display_phone_number="+1 555 000 1111", access_token=f"EAAG-token-{number}",
        app_secret="app-secret", verify_token="verify-token-123",
    )
    assert connected["phone_number_id"] == number
    assert connected["webhook_path"] == "/api/v1/channels/whatsapp/webhook"
    assert "access_token" not in connected
    assert any(c["channel"] == "whatsapp" and c.get("phone_number_id") == number for c in client.channels.list())
    with pytest.raises(ValidationError) as raised:
        client.channels.connect_whatsapp(phone_number_id="123456", access_token="EAAG-wrong", app_secret="x", verify_token="verify-token-123")
    assert raised.value.code == "whatsapp_credentials_invalid"


def create_conversation(client: MessagingClient) -> dict:  # type: ignore[type-arg]
    return client.conversations.create(  # type: ignore[return-value]
        channel="sandbox", customer={"phone": phone(), "name": "Olga"}, tags=["VIP"], priority="high", message={"text": "Welcome!"}
    )


def test_conversations_create_get_conflict_update(client: MessagingClient) -> None:
    created = create_conversation(client)
    assert created["id"].startswith("conv_")
    assert (created["tags"], created["priority"], created["version"]) == (["vip"], "high", 1)
    assert [m["text"] for m in created["messages"]] == ["Welcome!"]
    got = client.conversations.get(created["id"])
    assert got["id"] == created["id"] and got["messages_has_more"] is False

    with pytest.raises(ConflictError) as raised:
        client.conversations.create(channel="sandbox", customer={"id": created["customer"]["id"]})
    assert (raised.value.status, raised.value.code) == (409, "conversation_exists")

    updated = client.conversations.update(created["id"], status="pending", tags=["vip", "follow-up"], if_match=created["version"])
    assert (updated["status"], updated["tags"]) == ("pending", ["vip", "follow-up"])
    with pytest.raises(PreconditionFailedError):
        client.conversations.update(created["id"], priority="low", if_match=created["version"])
    assert client.conversations.update(created["id"], priority="low")["priority"] == "low"

    client.conversations.update(created["id"], status="resolved")
    assert any(c["id"] == created["id"] for c in client.conversations.list(status="resolved"))
    assert all(c["id"] != created["id"] for c in client.conversations.list(status="open"))


def test_invalid_input_is_a_validation_error_naming_the_field(client: MessagingClient) -> None:
    with pytest.raises(ValidationError) as raised:
        client.conversations.create(channel="sandbox", customer={"phone": "nope"})
    assert raised.value.status == 422
    assert any(field["path"].startswith("customer") for field in raised.value.errors), raised.value.errors
    assert isinstance(raised.value.errors[0]["message"], str)
    with pytest.raises(NotFoundError):
        client.conversations.get("conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")


def test_messages_are_sent_then_read_and_listed_newest_first(client: MessagingClient) -> None:
    created = create_conversation(client)
    sent = client.conversations.messages.send(created["id"], text="Of course! Tuesday 10:00 works.")
    assert (sent["status"], sent["direction"]) == ("queued", "outbound")
    eventually(lambda: client.conversations.messages.page(created["id"], limit=1)[0]["status"] == "read")
    texts = [m["text"] for m in client.conversations.messages.list(created["id"])]
    assert texts == ["Of course! Tuesday 10:00 works.", "Welcome!"]


def test_customers_list_newest_first_get_and_find_by_phone(client: MessagingClient) -> None:
    numbers = [phone(), phone()]
    ids = [
        client.channels.sandbox_inbound(from_=number, name=f"Customer {i}", text="Hello")["conversation"]["customer"]["id"]  # type: ignore[typeddict-item]
        for i, number in enumerate(numbers)
    ]
    newest = client.customers.page(limit=2)
    assert [c["id"] for c in newest.data] == [ids[1], ids[0]]
    got = client.customers.get(ids[0])
    assert (got["name"], got["phone"]) == ("Customer 0", numbers[0])
    assert client.customers.find_by_phone(numbers[0]) == got
    assert client.customers.find_by_phone("+491519999999") is None
    for missing in ("", " ", None):
        with pytest.raises(MessagingError, match="needs a phone number"):
            client.customers.find_by_phone(missing)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        client.customers.get("cus_01M8097VP4N21KKVHA4G7BR51Q")


def test_conversations_listed_by_assignee_while_unresolved(client: MessagingClient, tenant: Tenant) -> None:
    conversation = client.channels.sandbox_inbound(from_=phone(), text="Hello")["conversation"]  # type: ignore[typeddict-item]
    client.conversations.update(conversation["id"], assignee_id=tenant.admin_user_id)
    assert conversation["id"] in [c["id"] for c in client.conversations.list(assignee_id=tenant.admin_user_id)]
    client.conversations.update(conversation["id"], status="resolved")
    assert conversation["id"] not in [c["id"] for c in client.conversations.list(assignee_id=tenant.admin_user_id)]


def test_notes_created_and_listed_newest_first(client: MessagingClient) -> None:
    conversation = client.channels.sandbox_inbound(from_=phone(), text="Hello")["conversation"]  # type: ignore[typeddict-item]
    first = client.conversations.notes.create(conversation["id"], text="VIP: be quick")
    assert first["author"]["type"] == "api_key"
    edited = client.conversations.notes.update(conversation["id"], first["id"], text="VIP: be very quick", if_match=first["version"])
    assert (edited["text"], edited["created_at"], first["edited_at"], edited["version"]) == ("VIP: be very quick", first["created_at"], None, 2)
    assert edited["edited_at"] is not None
    # Made on the version before: someone changed the note meanwhile.
    with pytest.raises(PreconditionFailedError):
        client.conversations.notes.update(conversation["id"], first["id"], text="stale", if_match=first["version"])
    with pytest.raises(PreconditionFailedError):
        client.conversations.notes.delete(conversation["id"], first["id"], if_match=first["version"])
    second = client.conversations.notes.create(conversation["id"], text="Called back")
    assert [n["id"] for n in client.conversations.notes.list(conversation["id"])] == [second["id"], first["id"]]
    client.conversations.notes.delete(conversation["id"], second["id"])
    assert [n["id"] for n in client.conversations.notes.list(conversation["id"])] == [first["id"]]
    with pytest.raises(NotFoundError):
        client.conversations.notes.create("conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W", text="x")


def test_conversations_listed_when_nobody_is_assigned(client: MessagingClient, tenant: Tenant) -> None:
    conversation = client.channels.sandbox_inbound(from_=phone(), text="Hello")["conversation"]  # type: ignore[typeddict-item]

    def unassigned() -> list[str]:
        return [c["id"] for c in client.conversations.list(assignee_id="none", status="open")]

    assert conversation["id"] in unassigned()
    client.conversations.update(conversation["id"], assignee_id=tenant.admin_user_id)
    assert conversation["id"] not in unassigned()


def test_customers_found_by_the_start_of_their_name(client: MessagingClient) -> None:
    unique = f"Zed{phone()[-7:]}"
    ids = [
        client.channels.sandbox_inbound(from_=phone(), name=f"{unique} {surname}", text="Hello")["conversation"]["customer"]["id"]  # type: ignore[typeddict-item]
        for surname in ("Ölmez", "Adams")
    ]
    assert [c["id"] for c in client.customers.list(name=unique.lower())] == [ids[1], ids[0]]
    assert [c["id"] for c in client.customers.page(name=f"{unique} olm").data] == [ids[0]]


def test_customers_update_renames_everywhere_and_if_match_guards(client: MessagingClient) -> None:
    result = client.channels.sandbox_inbound(from_=phone(), name="Ada", text="Hello")
    conversation_id = result["conversation"]["id"]  # type: ignore[typeddict-item]
    customer = client.customers.get(result["conversation"]["customer"]["id"])  # type: ignore[typeddict-item]
    renamed = client.customers.update(customer["id"], name="Ada Lovelace", if_match=customer["version"])
    assert (renamed["name"], renamed["version"]) == ("Ada Lovelace", customer["version"] + 1)
    assert client.conversations.get(conversation_id)["customer"]["name"] == "Ada Lovelace"
    with pytest.raises(PreconditionFailedError):
        client.customers.update(customer["id"], name=None, if_match=customer["version"])
    assert client.customers.update(customer["id"], name=None)["name"] is None


def test_saved_replies_create_list_get_update_conflict_render_delete() -> None:
    fresh = new_tenant()  # its own tenant: the list below is every saved reply it has
    client = fresh.client()
    greeting = "Hi {{customer.first_name | there}}, {{agent.first_name}} here. Texting {{customer.phone}}."
    greet = client.saved_replies.create(shortcut="greet", title="Greeting", text=greeting)
    assert greet["id"].startswith("rpl_")
    assert (greet["shortcut"], greet["title"], greet["text"], greet["version"]) == ("greet", "Greeting", greeting, 1)
    assert greet["created_by"]["type"] == "api_key"
    hours = client.saved_replies.create(shortcut="hours", title="Opening hours", text="Open 9 to 18.")
    green = client.saved_replies.create(shortcut="green-tea", title="Tea", text="We serve green tea.")

    # A to Z by shortcut, across pages; by the start of the shortcut.
    assert [r["shortcut"] for r in client.saved_replies.list(limit=2)] == ["green-tea", "greet", "hours"]
    assert [r["id"] for r in client.saved_replies.list(shortcut="gre")] == [green["id"], greet["id"]]
    assert [r["id"] for r in client.saved_replies.page(shortcut="ho").data] == [hours["id"]]
    assert client.saved_replies.get(greet["id"]) == greet

    with pytest.raises(ConflictError) as taken:
        client.saved_replies.create(shortcut="hours", title="Hours again", text="Open late.")
    assert (type(taken.value), taken.value.status, taken.value.code) == (ConflictError, 409, "shortcut_taken")
    with pytest.raises(ConflictError) as taken:
        client.saved_replies.update(green["id"], shortcut="hours")
    assert taken.value.code == "shortcut_taken"

    updated = client.saved_replies.update(hours["id"], title="Hours", text="Open 9 to 20.", if_match=hours["version"])
    assert (updated["title"], updated["text"], updated["shortcut"], updated["version"]) == ("Hours", "Open 9 to 20.", "hours", 2)
    with pytest.raises(PreconditionFailedError) as stale:
        client.saved_replies.update(hours["id"], text="Closed.", if_match=hours["version"])
    assert stale.value.status == 412
    assert client.saved_replies.get(hours["id"])["text"] == "Open 9 to 20."

    # Filled in for a conversation: its customer's values, a fallback where there is none, and an API key has no name.
    sender = phone()
    named = client.channels.sandbox_inbound(from_=sender, name="Maria Lopez", text="Hello")["conversation"]["id"]  # type: ignore[typeddict-item]
    rendered = client.saved_replies.render(greet["id"], conversation_id=named)
    assert rendered == {"text": f"Hi Maria,  here. Texting {sender}.", "missing": ["agent.first_name"]}
    unnamed = client.conversations.create(channel="sandbox", customer={"phone": phone()})["id"]
    assert client.saved_replies.render(greet["id"], conversation_id=unnamed)["text"].startswith("Hi there, ")
    with MessagingClient.login(email=fresh.admin_email, password=fresh.admin_password, base_url=BASE_URL) as session:
        as_user = session.saved_replies.render(greet["id"], conversation_id=named)
    assert as_user == {"text": f"Hi Maria, Sam here. Texting {sender}.", "missing": []}
    # Rendering sends nothing.
    assert [m["text"] for m in client.conversations.messages.list(named)] == ["Hello"]

    assert client.saved_replies.delete(hours["id"]) is None
    with pytest.raises(NotFoundError) as gone:
        client.saved_replies.get(hours["id"])
    assert gone.value.status == 404
    with pytest.raises(NotFoundError):
        client.saved_replies.delete(hours["id"])
    assert [r["shortcut"] for r in client.saved_replies.list()] == ["green-tea", "greet"]
    # Its shortcut is free again at once.
    again = client.saved_replies.create(shortcut="hours", title="Hours", text="Open.")
    assert [r["id"] for r in client.saved_replies.list(shortcut="hours")] == [again["id"]]
    fresh.close()


def test_bookings_create_conflict_get_reschedule_list_cancel(client: MessagingClient) -> None:
    customer_id = client.channels.sandbox_inbound(from_=phone(), name="Bea", text="I want to book")["conversation"]["customer"]["id"]  # type: ignore[typeddict-item]
    day = day_ahead(7)
    booking = client.bookings.create(
        customer={"id": customer_id}, service="Dental cleaning", resource_id="chair-1", start_at=f"{day}T10:00:00+01:00",
        end_at=f"{day}T10:45:00+01:00", timezone="Europe/Berlin", metadata={"source": "sdk"},
    )
    assert booking["status"] == "confirmed"
    assert booking["start_at"] == f"{day}T09:00:00.000Z"
    assert booking["metadata"] == {"source": "sdk"}
    with pytest.raises(ConflictError):
        client.bookings.create(customer={"id": customer_id}, service="Check-up", resource_id="chair-1",
                               start_at=f"{day}T10:30:00+01:00", end_at=f"{day}T11:00:00+01:00", timezone="Europe/Berlin")

    got = client.bookings.get(booking["id"])
    assert got == booking
    # The chair's morning: busy while booked, hour-long slots around it (datetimes or strings, minutes as ints).
    morning = client.bookings.availability(resource_id="chair-1", from_=datetime.fromisoformat(f"{day}T08:00:00+00:00"),
                                           to=f"{day}T12:00:00Z", duration_minutes=60)
    assert morning["busy"] == [{"start_at": booking["start_at"], "end_at": booking["end_at"]}]
    assert [s["start_at"] for s in morning["slots"] or []] == [f"{day}T{h}:00:00.000Z" for h in ("08", "10", "11")]
    moving = client.bookings.availability(resource_id="chair-1", from_=f"{day}T08:00:00Z", to=f"{day}T12:00:00Z",
                                          reschedule_booking_id=booking["id"])
    assert (moving["busy"], moving["slots"]) == ([], None)
    start = datetime.fromisoformat(f"{day}T14:00:00+01:00")
    moved = client.bookings.update(booking["id"], start_at=start, end_at=start + timedelta(minutes=45), if_match=got["version"])
    assert moved["rescheduled_from"]["start_at"] == f"{day}T09:00:00.000Z"  # type: ignore[typeddict-item]
    assert moved["version"] == 2
    with pytest.raises(PreconditionFailedError):
        client.bookings.update(booking["id"], notes="x", if_match=got["version"])

    assert [b["id"] for b in client.bookings.list(customer_id=customer_id)] == [booking["id"]]
    midnight = datetime.fromisoformat(f"{day}T00:00:00+00:00")
    assert any(b["id"] == booking["id"] for b in client.bookings.list(from_=midnight, to=f"{day}T23:59:59Z"))

    cancelled = client.bookings.cancel(booking["id"], reason="Customer called to cancel", if_match=moved["version"])
    assert cancelled["status"] == "cancelled"
    assert cancelled["cancellation"]["reason"] == "Customer called to cancel"  # type: ignore[typeddict-item]
    assert client.bookings.cancel(booking["id"])["status"] == "cancelled"


def test_bookings_notify_tells_the_customer_in_the_booking_conversation(client: MessagingClient) -> None:
    opened = client.channels.sandbox_inbound(from_=phone(), name="Ana Sousa", text="Marcação?")["conversation"]  # type: ignore[typeddict-item]
    booking = client.bookings.create(customer={"id": opened["customer"]["id"]}, conversation_id=opened["id"], service="Corte",
                                     start_at="2031-03-04T15:00:00Z", end_at="2031-03-04T15:30:00Z", timezone="Europe/Lisbon")
    message = client.bookings.notify(booking["id"], language="pt")
    assert message["conversation_id"] == opened["id"]
    assert message["text"] == "Olá Ana, a sua marcação (Corte) está confirmada para terça-feira, 4 de março às 15:00. Até breve!"
    lone = client.bookings.create(customer={"phone": phone()}, service="Corte",
                                  start_at="2031-03-04T16:00:00Z", end_at="2031-03-04T16:30:00Z", timezone="Europe/Lisbon")
    with pytest.raises(ValidationError) as refused:
        client.bookings.notify(lone["id"])
    assert refused.value.code == "booking_without_conversation"


def test_schedule_buffers_keep_the_resource_free_around_bookings_made_under_them(client: MessagingClient) -> None:
    chair = f"buffered-{secrets.token_hex(3)}"
    every_day = {day: [{"start": "00:00", "end": "24:00"}] for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}
    schedule = client.schedules.create(resource_id=chair, timezone="UTC", weekly_hours=every_day, buffer_after_minutes=15)  # type: ignore[arg-type]
    assert (schedule["buffer_before_minutes"], schedule["buffer_after_minutes"]) == (0, 15)
    customer_id = client.channels.sandbox_inbound(from_=phone(), name="Ines", text="A slot, please")["conversation"]["customer"]["id"]  # type: ignore[typeddict-item]

    def book(start: str, end: str):  # type: ignore[no-untyped-def]
        return client.bookings.create(customer={"id": customer_id}, service="Cut", resource_id=chair,
                                      start_at=f"2031-03-03T{start}:00Z", end_at=f"2031-03-03T{end}:00Z", timezone="UTC")

    first = book("10:00", "10:45")
    assert first["buffer_after_minutes"] == 15
    with pytest.raises(ConflictError) as taken:
        book("10:50", "11:20")
    assert taken.value.code == "booking_conflict"
    day = client.bookings.availability(resource_id=chair, from_="2031-03-03T10:00:00Z", to="2031-03-03T12:00:00Z",
                                       duration_minutes=30, step_minutes=15)
    assert day["busy"] == [{"start_at": "2031-03-03T10:00:00.000Z", "end_at": "2031-03-03T10:45:00.000Z"}]
    assert day["held"] == [{"start_at": "2031-03-03T10:00:00.000Z", "end_at": "2031-03-03T11:00:00.000Z"}]
    assert (day["buffer_before_minutes"], day["buffer_after_minutes"]) == (0, 15)
    assert day["slots"] and day["slots"][0]["start_at"] == "2031-03-03T11:00:00.000Z"
    # Bookings already made keep theirs.
    changed = client.schedules.update(chair, buffer_after_minutes=0, if_match=schedule["version"])
    assert changed["buffer_after_minutes"] == 0
    assert client.bookings.get(first["id"])["buffer_after_minutes"] == 15


def test_schedules_create_get_list_update_delete_and_bookings_within_the_hours(client: MessagingClient) -> None:
    # The module's tenant is shared: ids of this test's own (a ":" is escaped in the path), listed among any others.
    prefix = f"sched-{secrets.token_hex(3)}"
    chair, room = f"{prefix}:chair", f"{prefix}:annex"
    hours = {"mon": [{"start": "09:00", "end": "12:30"}, {"start": "13:30", "end": "18:00"}], "tue": [{"start": "09:00", "end": "18:00"}]}
    schedule = client.schedules.create(resource_id=chair, timezone="Europe/Berlin", weekly_hours=hours,  # type: ignore[arg-type]
                                       date_overrides=[{"date": "2031-03-04", "hours": []}])
    assert (schedule["resource_id"], schedule["timezone"], schedule["version"]) == (chair, "Europe/Berlin", 1)
    # Every day of the week comes back, those left out closed ([]).
    assert schedule["weekly_hours"] == {**hours, "wed": [], "thu": [], "fri": [], "sat": [], "sun": []}
    assert schedule["date_overrides"] == [{"date": "2031-03-04", "hours": []}]
    assert client.schedules.get(chair) == schedule
    with pytest.raises(ConflictError) as exists:
        client.schedules.create(resource_id=chair, timezone="UTC", weekly_hours={"sun": [{"start": "10:00", "end": "14:00"}]})
    assert (exists.value.status, exists.value.code) == (409, "schedule_exists")
    annex = client.schedules.create(resource_id=room, timezone="UTC", weekly_hours={"sun": [{"start": "10:00", "end": "14:00"}]})

    # A to Z by resource id, across pages.
    assert [s["resource_id"] for s in client.schedules.list(limit=1) if s["resource_id"].startswith(prefix)] == [room, chair]
    assert [s for s in client.schedules.page(limit=100).data if s["resource_id"].startswith(prefix)] == [annex, schedule]

    # Monday 2031-03-03 (+01:00): a booking over the lunch break, or on the closed Tuesday, is refused.
    customer_id = client.channels.sandbox_inbound(from_=phone(), name="Ines", text="A slot, please")["conversation"]["customer"]["id"]  # type: ignore[typeddict-item]
    with pytest.raises(ValidationError) as outside:
        client.bookings.create(customer={"id": customer_id}, service="Check-up", resource_id=chair, start_at="2031-03-03T12:45:00+01:00",
                               end_at="2031-03-03T13:15:00+01:00", timezone="Europe/Berlin")
    assert (outside.value.status, outside.value.code) == (422, "outside_opening_hours")
    assert [e["path"] for e in outside.value.errors] == ["start_at"]
    with pytest.raises(ValidationError) as holiday:
        client.bookings.create(customer={"id": customer_id}, service="Check-up", resource_id=chair, start_at="2031-03-04T10:00:00+01:00",
                               end_at="2031-03-04T10:30:00+01:00", timezone="Europe/Berlin")
    assert holiday.value.code == "outside_opening_hours"
    booking = client.bookings.create(customer={"id": customer_id}, service="Check-up", resource_id=chair,
                                     start_at="2031-03-03T10:00:00+01:00", end_at="2031-03-03T10:45:00+01:00", timezone="Europe/Berlin")

    # Availability: the time outside the hours is closed; free time and slots lie within them.
    day = client.bookings.availability(resource_id=chair, from_="2031-03-03T08:00:00+01:00", to="2031-03-03T19:00:00+01:00", duration_minutes=60)
    def span(start: str, end: str) -> dict:  # type: ignore[type-arg]
        return {"start_at": f"2031-03-03T{start}:00.000Z", "end_at": f"2031-03-03T{end}:00.000Z"}

    assert day["closed"] == [span("07:00", "08:00"), span("11:30", "12:30"), span("17:00", "18:00")]
    assert day["busy"] == [{"start_at": booking["start_at"], "end_at": booking["end_at"]}]
    assert day["free"] == [span("08:00", "09:00"), span("09:45", "11:30"), span("12:30", "17:00")]
    assert day["slots"] == [span("08:00", "09:00"), span("10:00", "11:00")] + [span(f"{h}:00", f"{h + 1}:00") for h in (13, 14, 15, 16)]
    assert client.bookings.availability(resource_id=f"{prefix}:none", from_="2031-03-03T08:00:00+01:00", to="2031-03-03T19:00:00+01:00")["closed"] == []

    # The weekdays sent are replaced (Monday 08:00-20:00), the others keep their hours; the overrides go as a whole.
    tuesday = schedule["weekly_hours"]["tue"]
    updated = client.schedules.update(chair, weekly_hours={"mon": [{"start": "08:00", "end": "20:00"}]}, date_overrides=[], if_match=schedule["version"])
    assert (updated["version"], updated["timezone"], updated["date_overrides"]) == (2, "Europe/Berlin", [])
    assert updated["weekly_hours"]["mon"] == [{"start": "08:00", "end": "20:00"}] and updated["weekly_hours"]["tue"] == tuesday
    with pytest.raises(PreconditionFailedError) as stale:
        client.schedules.update(chair, timezone="UTC", if_match=schedule["version"])
    assert (stale.value.status, stale.value.code) == (412, "version_mismatch")
    assert client.schedules.get(chair) == updated
    lunch = client.bookings.create(customer={"id": customer_id}, service="Check-up", resource_id=chair, start_at="2031-03-03T12:45:00+01:00",
                                   end_at="2031-03-03T13:15:00+01:00", timezone="Europe/Berlin")
    assert lunch["status"] == "confirmed"

    with pytest.raises(PreconditionFailedError):
        client.schedules.delete(chair, if_match=schedule["version"])
    assert client.schedules.delete(chair, if_match=updated["version"]) is None
    with pytest.raises(NotFoundError) as gone:
        client.schedules.get(chair)
    assert gone.value.status == 404
    with pytest.raises(NotFoundError):
        client.schedules.delete(chair)
    # Open at all times again.
    assert client.bookings.availability(resource_id=chair, from_="2031-03-04T08:00:00+01:00", to="2031-03-04T19:00:00+01:00")["closed"] == []
    assert [s["resource_id"] for s in client.schedules.list() if s["resource_id"].startswith(prefix)] == [room]
    client.schedules.delete(room)


def test_ai_analyze_suggest_and_categorize(client: MessagingClient) -> None:
    analysis = client.ai.analyze(text="I was charged twice for my massage tomorrow at 3pm!! Refund the €45 to jo@example.com")
    assert analysis["intent"]["name"] == "payment_issue"
    assert analysis["sentiment"]["label"] == "negative"
    assert any(e["type"] == "email" and e["value"] == "jo@example.com" for e in analysis["entities"])

    inbound = client.channels.sandbox_inbound(from_=phone(), name="Maria Lopez", text="This is ridiculous, I want to talk to a real person")
    conversation_id = inbound["conversation"]["id"]  # type: ignore[typeddict-item]
    suggestions = client.ai.suggest(conversation_id=conversation_id, count=2)
    assert suggestions["suggestions"]
    assert suggestions["grounding"]["customer_name"] == "Maria Lopez"
    categorized = client.ai.categorize(conversation_id=conversation_id, apply=True)
    assert categorized["category"]["name"] == "support"
    assert categorized["applied"] is True


def test_events_filter_by_type_and_time_newest_first(client: MessagingClient) -> None:
    client.channels.sandbox_inbound(from_=phone(), text="An event, please")
    now = datetime.now(timezone.utc)
    events = client.events.list(type="conversation.*", since=now - timedelta(hours=1), until=now + timedelta(minutes=1)).to_list()
    assert events and all(e["type"].startswith("conversation.") for e in events)
    ids = [e["id"] for e in events]
    assert ids == sorted(ids, reverse=True)
    created = next(e for e in events if e["type"] == "conversation.created")
    assert created["data"]["conversation"]["id"].startswith("conv_")  # type: ignore[typeddict-item]
    assert len(client.events.page(limit=1)) == 1
    assert client.events.get(created["id"]) == created
    with pytest.raises(NotFoundError):
        client.events.get("evt_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")


def test_auth_me_and_the_rate_limit_of_the_last_response(tenant: Tenant) -> None:
    fresh = tenant.client()
    assert fresh.rate_limit is None
    me = fresh.auth.me()
    assert (me["kind"], me["role"], me["tenant"]["id"]) == ("api_key", "admin", tenant.tenant_id)
    first = fresh.rate_limit
    assert first is not None and first.limit > 0
    fresh.auth.me()
    assert fresh.rate_limit is not None and fresh.rate_limit.remaining == first.remaining - 1
    assert fresh.rate_limit.reset_at > datetime.now(timezone.utc)


def test_api_keys_create_list_agents_may_not_administer_revoke(tenant: Tenant, client: MessagingClient) -> None:
    created = client.api_keys.create(name="Backend integration", role="agent")
    assert created["key"].startswith("sk_") and created["role"] == "agent"
    listed = next(k for k in client.api_keys.list() if k["id"] == created["id"])
    assert created["key"].startswith(listed["prefix"]) and "key" not in listed
    agent = tenant.client(api_key=created["key"])
    assert agent.auth.me()["role"] == "agent"
    with pytest.raises(PermissionDeniedError):
        agent.api_keys.page()
    assert client.api_keys.revoke(created["id"]) is None
    with pytest.raises(AuthenticationError) as raised:
        agent.auth.me()
    assert raised.value.status == 401


def test_users_create_get_list_update(tenant: Tenant, client: MessagingClient) -> None:
    email = f"agent-{secrets.token_hex(4)}@example.com"
    user = client.users.create(email=email, password="a long agent passphrase", name="Alex Agent")
    assert (user["role"], user["email"]) == ("agent", email)
    assert client.users.get(user["id"]) == user
    ids = [u["id"] for u in client.users.list()]
    assert user["id"] in ids and tenant.admin_user_id in ids
    updated = client.users.update(user["id"], status="disabled", if_match=user["version"])
    assert updated["status"] == "disabled"
    with pytest.raises(PreconditionFailedError):
        client.users.update(user["id"], name="x", if_match=user["version"])


def test_tenants_create_get_list_update(platform: PlatformClient) -> None:
    made = [
        platform.tenants.create(name=f"Page Co {i}", plan="free", admin={"email": f"p{i}-{secrets.token_hex(4)}@example.com", "password": ADMIN_PASSWORD})["tenant"]
        for i in range(3)
    ]
    got = platform.tenants.get(made[0]["id"])
    assert (got["name"], got["plan"]) == ("Page Co 0", "free")
    assert len(platform.tenants.page(limit=2)) == 2
    ids = [t["id"] for t in platform.tenants.list(limit=2)]
    assert all(t["id"] in ids for t in made) and len(ids) == len(set(ids))
    upgraded = platform.tenants.update(got["id"], plan="pro", default_language="de", if_match=got["version"])
    assert (upgraded["plan"], upgraded["default_language"]) == ("pro", "de")
    with pytest.raises(PreconditionFailedError):
        platform.tenants.update(got["id"], name="x", if_match=got["version"])
    assert platform.tenants.get(got["id"])["name"] == "Page Co 0"


def test_credential_errors(tenant: Tenant, client: MessagingClient) -> None:
    with PlatformClient(token="pt_wrong", base_url=BASE_URL) as wrong:
        with pytest.raises(AuthenticationError):
            wrong.tenants.page()
    with pytest.raises(AuthenticationError):
        tenant.client(api_key="sk_" + "x" * 40).auth.me()
    other = new_tenant()
    with pytest.raises(PermissionDeniedError) as denied:
        tenant.client(tenant_id=other.tenant_id).auth.me()
    assert denied.value.status == 403

    with pytest.raises(BadRequestError) as raised:
        client.conversations.page(cursor="not-a-cursor")
    error = raised.value
    assert (error.status, error.code) == (400, "invalid_cursor")
    assert error.type and error.type.startswith("http")
    assert error.detail and error.request_id
    assert error.problem["code"] == error.code
    assert error.headers["x-request-id"] == error.request_id
    with pytest.raises(BadRequestError):
        tenant.client(tenant_id="not-a-uuid").auth.me()


def test_the_raw_request_method_and_the_published_openapi_document(client: MessagingClient) -> None:
    body = client.request("GET", "/events", query={"limit": 1})
    assert isinstance(body["data"], list) and body["pagination"]["limit"] == 1
    created = client.request("POST", "/conversations", body={"channel": "sandbox", "customer": {"phone": phone()}})
    assert created["id"].startswith("conv_")
    with pytest.raises(NotFoundError):
        client.request("GET", "/conversations/conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")
    with platform_client() as platform:
        assert isinstance(platform.request("GET", "/platform/tenants", query={"limit": 1})["data"], list)

    document = client.meta.openapi()
    assert document["openapi"] == "3.1.0"
    local = json.loads(OPENAPI.read_text(encoding="utf-8"))
    assert sorted(document["paths"]) == sorted(local["paths"])
    assert RUNTIME["url"] in client.base_url and client.base_url.endswith("/api/v1")
