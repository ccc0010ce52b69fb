"""The synchronous client's resources, one class per group of operations.

Each method builds its request from the operation table generated from openapi.json (``_operations.py``),
so the keyword arguments map one to one to the API's fields. Optional arguments default to NOT_GIVEN (left
out); ``None`` sends JSON null, which clears a nullable field. Every method takes ``options=`` (per-call
:class:`~messaging_platform.RequestOptions`); updates take ``if_match=`` (a ``version``, or an ETag).
List methods return a :class:`Paginator` to ``for`` over (or ``paginator.page()``). Generated from
``async_resources.py`` by scripts/generate_sync.py: edit that file.
"""
from __future__ import annotations

from datetime import datetime
from typing import Dict, List, Optional, Union

from ._core import NOT_GIVEN, NotGivenOr, RequestOptions
from ._sync import SyncResource, SyncSession, SyncTransport
from .errors import AuthenticationError, MessagingError
from .models import (
    Analysis,
    ApiKey,
    Availability,
    Booking,
    BookingStatus,
    Categorization,
    ChannelList,
    ConnectedWhatsApp,
    Conversation,
    ConversationChannel,
    ConversationPriority,
    ConversationStatus,
    ConversationWithMessages,
    CreateBookingRequestStatus,
    CreateConversationRequestMessage,
    CreateScheduleRequestDateOverridesItem,
    CreateScheduleRequestWeeklyHours,
    CreateTenantRequestAdmin,
    Customer,
    CustomerInput,
    Delivery,
    DeliveryReplay,
    DeliveryStatus,
    DeliveryWithPayload,
    DuplicateInbound,
    Event,
    EventFilter,
    EventType,
    InboundMessage,
    Me,
    Message,
    NewApiKey,
    NewConversation,
    NewWebhookEndpoint,
    Note,
    OpenApiDocument,
    ProvisionedTenant,
    RecoveryResult,
    RenderedSavedReply,
    Role,
    RotatedWebhookEndpoint,
    SandboxChannel,
    SavedReply,
    Schedule,
    SuggestRepliesRequestMessagesItem,
    Suggestions,
    Tenant,
    TenantDefaultLanguage,
    TenantPlan,
    TenantStatus,
    TestDelivery,
    Tokens,
    User,
    UserStatus,
    WebhookEndpoint,
    WhatsAppChannel,
)
from .pagination import Page, Paginator

Instant = Union[str, datetime]
Metadata = Dict[str, Union[str, float, bool, None]]
IfMatch = Union[int, str, None]
Options = Optional[RequestOptions]
#: An item of ``client.channels.list()``.
Channel = Union[SandboxChannel, WhatsAppChannel]

__all__ = [
    "Conversations",
    "Messages",
    "Customers",
    "SavedReplies",
    "Bookings",
    "Schedules",
    "Ai",
    "Channels",
    "Events",
    "Webhooks",
    "WebhookDeliveries",
    "ApiKeys",
    "Users",
    "Auth",
    "Tenants",
    "Meta",
]


class Messages(SyncResource):
    """A conversation's messages: ``client.conversations.messages``."""

    def list(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Message]:
        """Every message of a conversation, newest first."""
        return self._list("listMessages", (conversation_id,), {"limit": limit, "cursor": cursor}, options)

    def page(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Message]:
        """One page of :meth:`list`."""
        return self.list(conversation_id, limit=limit, cursor=cursor, options=options).page()

    def send(self, conversation_id: str, /, *, text: str, options: Options = None) -> Message:
        """Sends a reply. It is answered ``queued``; its status then moves to sent, delivered and read (or failed)."""
        return self._call("sendMessage", (conversation_id,), {"text": text}, options=options)


class Notes(SyncResource):
    """The team's notes on a conversation (never sent to the customer, no event): ``client.conversations.notes``."""

    def list(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Note]:
        """A conversation's notes, newest first."""
        return self._list("listNotes", (conversation_id,), {"limit": limit, "cursor": cursor}, options)

    def create(self, conversation_id: str, /, *, text: str, options: Options = None) -> Note:
        """Adds a note for the team."""
        return self._call("createNote", (conversation_id,), {"text": text}, options=options)

    def update(
        self, conversation_id: str, note_id: str, /, *, text: str, if_match: IfMatch = None, options: Options = None
    ) -> Note:
        """Replaces a note's text (sets ``edited_at``, moves ``version`` on): only its author may. With
        ``if_match=note["version"]``, a note changed meanwhile raises PreconditionFailedError."""
        return self._call(
            "updateNote", (conversation_id, note_id), {"text": text}, if_match=if_match, options=options
        )

    def delete(
        self, conversation_id: str, note_id: str, /, *, if_match: IfMatch = None, options: Options = None
    ) -> None:
        """Deletes a note: its author may, and an admin may delete anyone's. ``if_match`` as for update."""
        self._call("deleteNote", (conversation_id, note_id), if_match=if_match, options=options)


class Conversations(SyncResource):
    """``client.conversations``: conversations, their messages (``.messages``) and notes (``.notes``)."""

    def __init__(self, transport: SyncTransport) -> None:
        super().__init__(transport)
        self.messages = Messages(transport)
        self.notes = Notes(transport)

    def list(
        self,
        *,
        status: NotGivenOr[ConversationStatus] = NOT_GIVEN,
        tag: NotGivenOr[str] = NOT_GIVEN,
        channel: NotGivenOr[ConversationChannel] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        assignee_id: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Conversation]:
        """Conversations, newest activity first. Filter by ``status``, ``tag``, ``customer_id`` or ``assignee_id``
        (a user's unresolved conversations), or ``status`` with one other; ``channel`` and ``assignee_id="none"``
        (the conversations nobody is assigned to) combine with any of them."""
        params = {
            "status": status,
            "tag": tag,
            "channel": channel,
            "customer_id": customer_id,
            "assignee_id": assignee_id,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listConversations", (), params, options)

    def page(
        self,
        *,
        status: NotGivenOr[ConversationStatus] = NOT_GIVEN,
        tag: NotGivenOr[str] = NOT_GIVEN,
        channel: NotGivenOr[ConversationChannel] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        assignee_id: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Conversation]:
        """One page of :meth:`list`."""
        return self.list(
            status=status,
            tag=tag,
            channel=channel,
            customer_id=customer_id,
            assignee_id=assignee_id,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    def get(self, id: str, /, *, options: Options = None) -> ConversationWithMessages:
        """A conversation with its 20 newest messages."""
        return self._call("getConversation", (id,), options=options)

    def create(
        self,
        *,
        channel: ConversationChannel,
        customer: CustomerInput,
        channel_account_id: NotGivenOr[str] = NOT_GIVEN,
        tags: NotGivenOr[List[str]] = NOT_GIVEN,
        priority: NotGivenOr[ConversationPriority] = NOT_GIVEN,
        assignee_id: NotGivenOr[Optional[str]] = NOT_GIVEN,
        message: NotGivenOr[CreateConversationRequestMessage] = NOT_GIVEN,
        options: Options = None,
    ) -> NewConversation:
        """Opens a conversation with a customer (by ``id``, or by ``phone``), optionally with a first message.
        A second open conversation with the same customer is a ConflictError (``conversation_exists``)."""
        params = {
            "channel": channel,
            "customer": customer,
            "channel_account_id": channel_account_id,
            "tags": tags,
            "priority": priority,
            "assignee_id": assignee_id,
            "message": message,
        }
        return self._call("createConversation", (), params, options=options)

    def update(
        self,
        id: str,
        /,
        *,
        status: NotGivenOr[ConversationStatus] = NOT_GIVEN,
        snoozed_until: NotGivenOr[Optional[Instant]] = NOT_GIVEN,
        tags: NotGivenOr[List[str]] = NOT_GIVEN,
        assignee_id: NotGivenOr[Optional[str]] = NOT_GIVEN,
        priority: NotGivenOr[ConversationPriority] = NOT_GIVEN,
        category: NotGivenOr[Optional[str]] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Conversation:
        """Changes status, tags, assignee, priority or category. Pass ``if_match=conversation["version"]`` to
        guard against lost updates (PreconditionFailedError when someone changed it since)."""
        params = {
            "status": status,
            "snoozed_until": snoozed_until,
            "tags": tags,
            "assignee_id": assignee_id,
            "priority": priority,
            "category": category,
        }
        return self._call("updateConversation", (id,), params, if_match=if_match, options=options)


class Customers(SyncResource):
    """``client.customers``: the people a tenant talks to, created by their first contact."""

    def list(
        self,
        *,
        phone: NotGivenOr[str] = NOT_GIVEN,
        name: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Customer]:
        """Customers, newest first; ``phone`` (E.164) gives the one customer with that number, or none;
        ``name`` gives those whose name, or a later word of it, starts with it (case and accents aside), A to Z."""
        params = {"phone": phone, "name": name, "limit": limit, "cursor": cursor}
        return self._list("listCustomers", (), params, options)

    def page(
        self,
        *,
        phone: NotGivenOr[str] = NOT_GIVEN,
        name: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Customer]:
        """One page of :meth:`list`."""
        return self.list(phone=phone, name=name, limit=limit, cursor=cursor, options=options).page()

    def get(self, id: str, /, *, options: Options = None) -> Customer:
        return self._call("getCustomer", (id,), options=options)

    def update(
        self,
        id: str,
        /,
        *,
        name: NotGivenOr[Optional[str]] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Customer:
        """Changes the customer's name (``None`` clears it); their conversations and bookings show it too.
        Pass ``if_match=customer["version"]`` to guard against lost updates (PreconditionFailedError)."""
        return self._call("updateCustomer", (id,), {"name": name}, if_match=if_match, options=options)

    def find_by_phone(self, phone: str, /, *, options: Options = None) -> Optional[Customer]:
        """The customer with this phone number (E.164, e.g. ``+4915112345678``), or None."""
        # Without a number the request would be the whole list, and its first customer someone else.
        if not isinstance(phone, str) or not phone.strip():
            raise MessagingError("find_by_phone needs a phone number.")
        found = self.page(phone=phone, options=options).data
        return found[0] if found else None


class SavedReplies(SyncResource):
    """``client.saved_replies``: the team's saved replies (canned responses), each under a shortcut unique in
    the tenant. Any user or API key may save, change and delete them."""

    def list(
        self,
        *,
        shortcut: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[SavedReply]:
        """Saved replies, A to Z by shortcut; ``shortcut`` gives those whose shortcut starts with it (``/`` left off)."""
        return self._list("listSavedReplies", (), {"shortcut": shortcut, "limit": limit, "cursor": cursor}, options)

    def page(
        self,
        *,
        shortcut: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[SavedReply]:
        """One page of :meth:`list`."""
        return self.list(shortcut=shortcut, limit=limit, cursor=cursor, options=options).page()

    def create(self, *, shortcut: str, title: str, text: str, options: Options = None) -> SavedReply:
        """Saves a reply. ``text`` may hold placeholders, optionally with a fallback
        (``{{customer.first_name | there}}``), which :meth:`render` fills in; an unknown one is a ValidationError.
        A shortcut another reply has is a ConflictError (``shortcut_taken``)."""
        params = {"shortcut": shortcut, "title": title, "text": text}
        return self._call("createSavedReply", (), params, options=options)

    def get(self, id: str, /, *, options: Options = None) -> SavedReply:
        """A saved reply, its placeholders as written."""
        return self._call("getSavedReply", (id,), options=options)

    def update(
        self,
        id: str,
        /,
        *,
        shortcut: NotGivenOr[str] = NOT_GIVEN,
        title: NotGivenOr[str] = NOT_GIVEN,
        text: NotGivenOr[str] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> SavedReply:
        """Changes its shortcut, title or text; another reply's shortcut is a ConflictError (``shortcut_taken``).
        Pass ``if_match=reply["version"]`` to guard against lost updates (PreconditionFailedError)."""
        params = {"shortcut": shortcut, "title": title, "text": text}
        return self._call("updateSavedReply", (id,), params, if_match=if_match, options=options)

    def delete(self, id: str, /, *, options: Options = None) -> None:
        """Deletes a saved reply; its shortcut is free again at once."""
        self._call("deleteSavedReply", (id,), options=options)

    def render(self, id: str, /, *, conversation_id: str, options: Options = None) -> RenderedSavedReply:
        """The reply's text with its placeholders filled in for a conversation (``customer.*`` from its customer,
        ``agent.*`` from the user calling; an API key has no name). ``missing`` lists the placeholders left
        empty, with no value and no fallback. Nothing is sent."""
        return self._call("renderSavedReply", (id,), {"conversation_id": conversation_id}, options=options)


class Bookings(SyncResource):
    """``client.bookings``."""

    def list(
        self,
        *,
        status: NotGivenOr[BookingStatus] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        from_: NotGivenOr[Instant] = NOT_GIVEN,
        to: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Booking]:
        """Bookings, newest first; filter by ``status``, ``customer_id``, and start time (``from_``, ``to``)."""
        params = {"status": status, "customer_id": customer_id, "from_": from_, "to": to, "limit": limit, "cursor": cursor}
        return self._list("listBookings", (), params, options)

    def page(
        self,
        *,
        status: NotGivenOr[BookingStatus] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        from_: NotGivenOr[Instant] = NOT_GIVEN,
        to: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Booking]:
        """One page of :meth:`list`."""
        return self.list(status=status, customer_id=customer_id, from_=from_, to=to, limit=limit, cursor=cursor, options=options).page()

    def availability(
        self,
        *,
        resource_id: str,
        from_: Instant,
        to: Instant,
        duration_minutes: NotGivenOr[int] = NOT_GIVEN,
        step_minutes: NotGivenOr[int] = NOT_GIVEN,
        reschedule_booking_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Availability:
        """A resource's busy and free time between ``from_`` and ``to`` (at most 31 days); with
        ``duration_minutes``, the slots of that length still free, every ``step_minutes`` from ``from_``.
        ``reschedule_booking_id``: a booking being moved, whose own time counts as free."""
        params = {
            "resource_id": resource_id, "from_": from_, "to": to, "duration_minutes": duration_minutes,
            "step_minutes": step_minutes, "reschedule_booking_id": reschedule_booking_id,
        }
        return self._call("getAvailability", (), params, options=options)

    def get(self, id: str, /, *, options: Options = None) -> Booking:
        return self._call("getBooking", (id,), options=options)

    def create(
        self,
        *,
        customer: CustomerInput,
        service: str,
        start_at: Instant,
        end_at: Instant,
        timezone: str,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        resource_id: NotGivenOr[str] = NOT_GIVEN,
        notes: NotGivenOr[str] = NOT_GIVEN,
        metadata: NotGivenOr[Metadata] = NOT_GIVEN,
        status: NotGivenOr[CreateBookingRequestStatus] = NOT_GIVEN,
        options: Options = None,
    ) -> Booking:
        """Books a slot. Overlapping an active booking of the same ``resource_id`` is a ConflictError
        (``booking_conflict``)."""
        params = {
            "customer": customer,
            "service": service,
            "start_at": start_at,
            "end_at": end_at,
            "timezone": timezone,
            "conversation_id": conversation_id,
            "resource_id": resource_id,
            "notes": notes,
            "metadata": metadata,
            "status": status,
        }
        return self._call("createBooking", (), params, options=options)

    def update(
        self,
        id: str,
        /,
        *,
        service: NotGivenOr[str] = NOT_GIVEN,
        notes: NotGivenOr[Optional[str]] = NOT_GIVEN,
        metadata: NotGivenOr[Metadata] = NOT_GIVEN,
        resource_id: NotGivenOr[Optional[str]] = NOT_GIVEN,
        timezone: NotGivenOr[str] = NOT_GIVEN,
        conversation_id: NotGivenOr[Optional[str]] = NOT_GIVEN,
        start_at: NotGivenOr[Instant] = NOT_GIVEN,
        end_at: NotGivenOr[Instant] = NOT_GIVEN,
        status: NotGivenOr[BookingStatus] = NOT_GIVEN,
        cancellation_reason: NotGivenOr[str] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Booking:
        """Changes details, reschedules (``start_at``/``end_at``) or moves the status."""
        params = {
            "service": service,
            "notes": notes,
            "metadata": metadata,
            "resource_id": resource_id,
            "timezone": timezone,
            "conversation_id": conversation_id,
            "start_at": start_at,
            "end_at": end_at,
            "status": status,
            "cancellation_reason": cancellation_reason,
        }
        return self._call("updateBooking", (id,), params, if_match=if_match, options=options)

    def cancel(self, id: str, /, *, reason: NotGivenOr[str] = NOT_GIVEN, if_match: IfMatch = None, options: Options = None) -> Booking:
        """Cancels (the record stays, ``cancelled``). Cancelling twice is harmless."""
        return self._call("cancelBooking", (id,), {"reason": reason}, if_match=if_match, options=options)

    def notify(self, id: str, /, *, language: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Message:
        """Tells the booking's customer where it stands (confirmed, moved, requested or cancelled) as a message in the
        booking's conversation (else the customer's most recently active one), in ``language`` (default: the
        tenant's); returns the queued message. A customer without any conversation (``booking_without_conversation``)
        or a booking that is over (``nothing_to_notify``) is a ValidationError."""
        return self._call("notifyBookingCustomer", (id,), {"language": language}, options=options)


class Schedules(SyncResource):
    """``client.schedules``: each resource's opening hours (``resource_id`` as in bookings), as wall-clock times in
    the schedule's time zone. Once a resource has one, an active booking of it must lie within its hours
    (ValidationError ``outside_opening_hours``) and availability counts the rest as ``closed``; a resource without
    one is open at all times. Anyone may read them; saving, changing and deleting take an admin."""

    def list(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Paginator[Schedule]:
        """Schedules, A to Z by ``resource_id``."""
        return self._list("listSchedules", (), {"limit": limit, "cursor": cursor}, options)

    def page(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Page[Schedule]:
        """One page of :meth:`list`."""
        return self.list(limit=limit, cursor=cursor, options=options).page()

    def create(
        self,
        *,
        resource_id: str,
        timezone: str,
        weekly_hours: CreateScheduleRequestWeeklyHours,
        date_overrides: NotGivenOr[List[CreateScheduleRequestDateOverridesItem]] = NOT_GIVEN,
        buffer_before_minutes: NotGivenOr[int] = NOT_GIVEN,
        buffer_after_minutes: NotGivenOr[int] = NOT_GIVEN,
        options: Options = None,
    ) -> Schedule:
        """Sets a resource's opening hours: ``weekly_hours`` by day (``{"mon": [{"start": "09:00", "end": "17:00"}], …}``;
        a day left out is closed) and ``date_overrides`` for particular dates (``{"date": "2026-12-24", "hours": []}``).
        ``buffer_before_minutes`` / ``buffer_after_minutes`` (0 to 120) keep the resource free around each booking made
        from then on. The answer has all seven days. A resource that has a schedule already is a ConflictError
        (``schedule_exists``)."""
        params = {
            "resource_id": resource_id,
            "timezone": timezone,
            "weekly_hours": weekly_hours,
            "date_overrides": date_overrides,
            "buffer_before_minutes": buffer_before_minutes,
            "buffer_after_minutes": buffer_after_minutes,
        }
        return self._call("createSchedule", (), params, options=options)

    def get(self, resource_id: str, /, *, options: Options = None) -> Schedule:
        """A resource's schedule; NotFoundError when it has none (it is open at all times)."""
        return self._call("getSchedule", (resource_id,), options=options)

    def update(
        self,
        resource_id: str,
        /,
        *,
        timezone: NotGivenOr[str] = NOT_GIVEN,
        weekly_hours: NotGivenOr[CreateScheduleRequestWeeklyHours] = NOT_GIVEN,
        date_overrides: NotGivenOr[List[CreateScheduleRequestDateOverridesItem]] = NOT_GIVEN,
        buffer_before_minutes: NotGivenOr[int] = NOT_GIVEN,
        buffer_after_minutes: NotGivenOr[int] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Schedule:
        """Changes what is given: each weekday in ``weekly_hours`` (the others keep their hours; ``[]``
        closes one), ``date_overrides`` as the whole list, ``timezone``, the buffers. Bookings already made keep
        their time and their buffers. Pass ``if_match=schedule["version"]`` to guard against lost updates
        (PreconditionFailedError)."""
        params = {
            "timezone": timezone,
            "weekly_hours": weekly_hours,
            "date_overrides": date_overrides,
            "buffer_before_minutes": buffer_before_minutes,
            "buffer_after_minutes": buffer_after_minutes,
        }
        return self._call("updateSchedule", (resource_id,), params, if_match=if_match, options=options)

    def delete(self, resource_id: str, /, *, if_match: IfMatch = None, options: Options = None) -> None:
        """Deletes a resource's schedule: it is open at all times again. With ``if_match``, only that version
        (PreconditionFailedError otherwise)."""
        self._call("deleteSchedule", (resource_id,), if_match=if_match, options=options)


class Ai(SyncResource):
    """``client.ai``: the AI functions."""

    def analyze(
        self,
        *,
        text: NotGivenOr[str] = NOT_GIVEN,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        message_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Analysis:
        """Sentiment, intent, entities, language and a handoff verdict, for ``text`` or a stored message."""
        return self._call("analyze", (), {"text": text, "conversation_id": conversation_id, "message_id": message_id}, options=options)

    def suggest(
        self,
        *,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        messages: NotGivenOr[List[SuggestRepliesRequestMessagesItem]] = NOT_GIVEN,
        count: NotGivenOr[int] = NOT_GIVEN,
        options: Options = None,
    ) -> Suggestions:
        """Reply suggestions grounded in the customer's name and next booking."""
        return self._call("suggestReplies", (), {"conversation_id": conversation_id, "messages": messages, "count": count}, options=options)

    def categorize(self, *, conversation_id: str, apply: NotGivenOr[bool] = NOT_GIVEN, options: Options = None) -> Categorization:
        """A category and tags for a conversation; ``apply=True`` sets them."""
        return self._call("categorizeConversation", (), {"conversation_id": conversation_id, "apply": apply}, options=options)


class Channels(SyncResource):
    """``client.channels``: the sandbox and WhatsApp numbers."""

    def list(self, *, options: Options = None) -> List[Channel]:
        """The sandbox and the connected WhatsApp numbers (not paginated)."""
        body: ChannelList = self._call("listChannels", options=options)
        return body["data"]  # type: ignore[return-value]

    def sandbox_inbound(
        self,
        *,
        from_: str,
        text: str,
        name: NotGivenOr[str] = NOT_GIVEN,
        provider_message_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Union[InboundMessage, DuplicateInbound]:
        """Injects a customer message on the sandbox channel (the same path as a WhatsApp message): the
        conversation and the message, or ``{"duplicate": True}`` for a ``provider_message_id`` already received."""
        params = {"from_": from_, "text": text, "name": name, "provider_message_id": provider_message_id}
        return self._call("injectSandboxMessage", (), params, options=options)

    def connect_whatsapp(
        self,
        *,
        phone_number_id: str,
        access_token: str,
        app_secret: str,
        verify_token: str,
        display_phone_number: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> ConnectedWhatsApp:
        """Connects a WhatsApp Cloud API number (admin only), after Meta confirms the token controls it."""
        params = {
            "phone_number_id": phone_number_id,
            "access_token": access_token,
            "app_secret": app_secret,
            "verify_token": verify_token,
            "display_phone_number": display_phone_number,
        }
        return self._call("connectWhatsApp", (), params, options=options)


class Events(SyncResource):
    """``client.events``: the last 30 days of events."""

    def list(
        self,
        *,
        type: NotGivenOr[EventFilter] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Event]:
        """Events, newest first; ``type`` takes an exact type or ``*``, ``conversation.*``, ``booking.*``."""
        return self._list("listEvents", (), {"type": type, "since": since, "until": until, "limit": limit, "cursor": cursor}, options)

    def page(
        self,
        *,
        type: NotGivenOr[EventFilter] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Event]:
        """One page of :meth:`list`."""
        return self.list(type=type, since=since, until=until, limit=limit, cursor=cursor, options=options).page()

    def get(self, id: str, /, *, options: Options = None) -> Event:
        """One event of the last 30 days, as webhooks deliver it (a receiver may fetch the event a delivery names)."""
        return self._call("getEvent", (id,), options=options)


class Webhooks(SyncResource):
    """``client.webhooks``: webhook endpoints, and each endpoint's deliveries."""

    def list(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Paginator[WebhookEndpoint]:
        return self._list("listWebhooks", (), {"limit": limit, "cursor": cursor}, options)

    def page(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Page[WebhookEndpoint]:
        """One page of :meth:`list`."""
        return self.list(limit=limit, cursor=cursor, options=options).page()

    def get(self, id: str, /, *, options: Options = None) -> WebhookEndpoint:
        return self._call("getWebhook", (id,), options=options)

    def create(
        self,
        *,
        url: str,
        events: List[EventFilter],
        description: NotGivenOr[str] = NOT_GIVEN,
        is_active: NotGivenOr[bool] = NOT_GIVEN,
        options: Options = None,
    ) -> NewWebhookEndpoint:
        """Registers an endpoint. Keep ``webhook_secret`` from the answer: it is not shown again."""
        params = {"url": url, "events": events, "description": description, "is_active": is_active}
        return self._call("createWebhook", (), params, options=options)

    def update(
        self,
        id: str,
        /,
        *,
        url: NotGivenOr[str] = NOT_GIVEN,
        events: NotGivenOr[List[EventFilter]] = NOT_GIVEN,
        description: NotGivenOr[Optional[str]] = NOT_GIVEN,
        is_active: NotGivenOr[bool] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> WebhookEndpoint:
        params = {"url": url, "events": events, "description": description, "is_active": is_active}
        return self._call("updateWebhook", (id,), params, if_match=if_match, options=options)

    def delete(self, id: str, /, *, if_match: IfMatch = None, options: Options = None) -> None:
        """Deletes the endpoint and stops its retries; its delivery history stays readable. With ``if_match``,
        only that version (412 otherwise)."""
        self._call("deleteWebhook", (id,), if_match=if_match, options=options)

    def rotate_secret(self, id: str, /, *, if_match: IfMatch = None, options: Options = None) -> RotatedWebhookEndpoint:
        """A new secret; the previous one keeps signing for 24 hours. With ``if_match``, only that version is rotated."""
        return self._call("rotateWebhookSecret", (id,), if_match=if_match, options=options)

    def test(self, id: str, /, *, options: Options = None) -> TestDelivery:
        """Delivers a ``webhook.test`` event to the endpoint now."""
        return self._call("sendTestEvent", (id,), options=options)

    def recover(self, id: str, /, *, since: Instant, until: NotGivenOr[Instant] = NOT_GIVEN, options: Options = None) -> RecoveryResult:
        """Replays every failed delivery of events between ``since`` and ``until`` (default now)."""
        return self._call("recoverWebhookDeliveries", (id,), {"since": since, "until": until}, options=options)

    def deliveries(
        self,
        id: str,
        /,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Delivery]:
        """This endpoint's deliveries, newest first, optionally by ``status`` and ``event_type``;
        ``since`` and ``until`` bound the event's time."""
        params = {"status": status, "event_type": event_type, "since": since, "until": until, "limit": limit, "cursor": cursor}
        return self._list("listWebhookEndpointDeliveries", (id,), params, options)

    def deliveries_page(
        self,
        id: str,
        /,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Delivery]:
        """One page of :meth:`deliveries`."""
        return self.deliveries(
            id, status=status, event_type=event_type, since=since, until=until, limit=limit, cursor=cursor, options=options
        ).page()


class WebhookDeliveries(SyncResource):
    """``client.webhook_deliveries``: deliveries across endpoints (the failed-delivery view), one delivery
    with its attempts, and replay."""

    def list(
        self,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        webhook_id: NotGivenOr[str] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Paginator[Delivery]:
        """Failed deliveries across endpoints (or another ``status``), newest event first, optionally of
        one endpoint (``webhook_id``) and ``event_type``; ``since`` and ``until`` bound the event's time."""
        params = {"status": status, "webhook_id": webhook_id, "event_type": event_type, "since": since, "until": until}
        return self._list("listWebhookDeliveries", (), {**params, "limit": limit, "cursor": cursor}, options)

    def page(
        self,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        webhook_id: NotGivenOr[str] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Page[Delivery]:
        """One page of :meth:`list`."""
        return self.list(
            status=status, webhook_id=webhook_id, event_type=event_type, since=since, until=until,
            limit=limit, cursor=cursor, options=options,
        ).page()

    def get(self, id: str, /, *, options: Options = None) -> DeliveryWithPayload:
        """A delivery with its payload and every attempt."""
        return self._call("getWebhookDelivery", (id,), options=options)

    def retry(self, id: str, /, *, options: Options = None) -> DeliveryReplay:
        """Replays one delivery with the full retry schedule."""
        return self._call("retryWebhookDelivery", (id,), options=options)


class ApiKeys(SyncResource):
    """``client.api_keys`` (admin only)."""

    def list(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Paginator[ApiKey]:
        return self._list("listApiKeys", (), {"limit": limit, "cursor": cursor}, options)

    def page(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Page[ApiKey]:
        """One page of :meth:`list`."""
        return self.list(limit=limit, cursor=cursor, options=options).page()

    def create(self, *, name: str, role: NotGivenOr[Role] = NOT_GIVEN, options: Options = None) -> NewApiKey:
        """A new key. ``key`` is in this answer only."""
        return self._call("createApiKey", (), {"name": name, "role": role}, options=options)

    def revoke(self, id: str, /, *, options: Options = None) -> None:
        """Revokes a key: its next request fails."""
        self._call("revokeApiKey", (id,), options=options)


class Users(SyncResource):
    """``client.users``: the tenant's users."""

    def list(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Paginator[User]:
        return self._list("listUsers", (), {"limit": limit, "cursor": cursor}, options)

    def page(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Page[User]:
        """One page of :meth:`list`."""
        return self.list(limit=limit, cursor=cursor, options=options).page()

    def get(self, id: str, /, *, options: Options = None) -> User:
        return self._call("getUser", (id,), options=options)

    def create(
        self,
        *,
        email: str,
        password: str,
        name: NotGivenOr[str] = NOT_GIVEN,
        role: NotGivenOr[Role] = NOT_GIVEN,
        options: Options = None,
    ) -> User:
        """Adds a user (admin only); ``role`` defaults to ``agent``."""
        return self._call("createUser", (), {"email": email, "password": password, "name": name, "role": role}, options=options)

    def update(
        self,
        id: str,
        /,
        *,
        name: NotGivenOr[Optional[str]] = NOT_GIVEN,
        role: NotGivenOr[Role] = NOT_GIVEN,
        status: NotGivenOr[UserStatus] = NOT_GIVEN,
        password: NotGivenOr[str] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> User:
        """Changes name, role, status or password (admin only)."""
        params = {"name": name, "role": role, "status": status, "password": password}
        return self._call("updateUser", (id,), params, if_match=if_match, options=options)


class Auth(SyncResource):
    """``client.auth``: the calling credential, and the login session's lifecycle."""

    def __init__(self, transport: SyncTransport, session: Optional[SyncSession]) -> None:
        super().__init__(transport)
        self._session = session

    def me(self, *, options: Options = None) -> Me:
        """Who is calling: an API key or a user's session, with its role and tenant."""
        return self._call("getMe", options=options)

    def logout(self, *, options: Options = None) -> None:
        """Ends the login session at once: its tokens stop working, and this client forgets them. A session
        the API already ended counts as logged out. (An API key is revoked with ``api_keys.revoke``; logout
        with one is a BadRequestError, ``not_a_session``.)"""
        try:
            self._call("logout", options=options)
        except AuthenticationError:
            if self._session is None:
                raise
        if self._session is not None:
            self._session.clear()

    def refresh(self) -> Tokens:
        """Rotates the session's tokens now (the client also does it by itself before they expire)."""
        if self._session is None:
            raise MessagingError("refresh() needs a login session (MessagingClient.login).")
        return self._session.refresh()


class Tenants(SyncResource):
    """``platform.tenants``: tenants, through the operator API (platform token)."""

    def create(
        self,
        *,
        name: str,
        plan: TenantPlan,
        admin: CreateTenantRequestAdmin,
        rate_limit_per_hour: NotGivenOr[int] = NOT_GIVEN,
        timezone: NotGivenOr[str] = NOT_GIVEN,
        default_language: NotGivenOr[TenantDefaultLanguage] = NOT_GIVEN,
        options: Options = None,
    ) -> ProvisionedTenant:
        """Creates a tenant with its first admin user and API key (the key is shown in this answer only)."""
        params = {
            "name": name,
            "plan": plan,
            "admin": admin,
            "rate_limit_per_hour": rate_limit_per_hour,
            "timezone": timezone,
            "default_language": default_language,
        }
        return self._call("createTenant", (), params, options=options)

    def list(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Paginator[Tenant]:
        return self._list("listTenants", (), {"limit": limit, "cursor": cursor}, options)

    def page(self, *, limit: NotGivenOr[int] = NOT_GIVEN, cursor: NotGivenOr[str] = NOT_GIVEN, options: Options = None) -> Page[Tenant]:
        """One page of :meth:`list`."""
        return self.list(limit=limit, cursor=cursor, options=options).page()

    def get(self, id: str, /, *, options: Options = None) -> Tenant:
        return self._call("getTenant", (id,), options=options)

    def update(
        self,
        id: str,
        /,
        *,
        name: NotGivenOr[str] = NOT_GIVEN,
        plan: NotGivenOr[TenantPlan] = NOT_GIVEN,
        rate_limit_per_hour: NotGivenOr[Optional[int]] = NOT_GIVEN,
        status: NotGivenOr[TenantStatus] = NOT_GIVEN,
        timezone: NotGivenOr[str] = NOT_GIVEN,
        default_language: NotGivenOr[TenantDefaultLanguage] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Tenant:
        """Changes name, plan, limit, status (``suspended``), time zone or default language."""
        params = {
            "name": name,
            "plan": plan,
            "rate_limit_per_hour": rate_limit_per_hour,
            "status": status,
            "timezone": timezone,
            "default_language": default_language,
        }
        return self._call("updateTenant", (id,), params, if_match=if_match, options=options)


class Meta(SyncResource):
    """``client.meta``: about the API itself."""

    def openapi(self, *, options: Options = None) -> OpenApiDocument:
        """The API's OpenAPI 3.1 document, as the server publishes it."""
        return self._call("getOpenApiDocument", options=options)
