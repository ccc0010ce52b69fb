"""Generated from openapi.json by scripts/generate_resources.py: do not edit (run it after `npm run openapi`).

The asynchronous client's resources, one class per group of operations; scripts/generate_sync.py makes
``resources.py`` from this file by taking the coroutine syntax out.

Each method builds its request from the operation table generated from openapi.json (``_operations.py``),
so the keyword arguments map one to one to the API's fields. Optional arguments default to NOT_GIVEN (left
out); ``None`` sends JSON null, which clears a nullable field. Every method takes ``options=`` (per-call
:class:`~messaging_platform.RequestOptions`); updates take ``if_match=`` (a ``version``, or an ETag).
Methods are coroutines, except list methods, which return an :class:`AsyncPaginator` to ``async for``
over (or ``await paginator.page()``).
"""
# fmt: off
from __future__ import annotations

from datetime import datetime
from typing import Dict, List, Optional, Union, Literal

from ._core import NOT_GIVEN, NotGivenOr, RequestOptions
from ._async import AsyncResource, AsyncTransport
from ._async_extensions import CustomersExtension, AuthExtension
from .models import (
    Analysis,
    ApiKey,
    Availability,
    Booking,
    BookingStatus,
    Categorization,
    ConnectedWhatsApp,
    Conversation,
    ConversationChannel,
    ConversationPriority,
    ConversationStatus,
    ConversationWithMessages,
    CreateBookingRequestPayment,
    CreateBookingRequestStatus,
    CreateConversationRequestMessage,
    CreateScheduleRequestDateOverridesItem,
    CreateScheduleRequestWeeklyHours,
    CreateTemplateRequestBody,
    CreateTemplateRequestButtonsItem1,
    CreateTemplateRequestButtonsItem2,
    CreateTemplateRequestFooter,
    CreateTemplateRequestHeader1,
    CreateTemplateRequestHeader2,
    CreateTenantRequestAdmin,
    CreatedPayment,
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
    InjectSandboxMessageRequestMedia,
    Me,
    MediaUpload,
    Message,
    MessageMediaType,
    NewApiKey,
    NewConversation,
    NewWebhookEndpoint,
    Note,
    OpenApiDocument,
    Payment,
    PaymentProvider,
    PaymentPurpose,
    PaymentSettings,
    PaymentStatus,
    ProvisionedTenant,
    RealtimeTicket,
    RecoveryResult,
    Refund,
    ReminderPolicy,
    RenderedSavedReply,
    Role,
    RotatedWebhookEndpoint,
    SandboxChannel,
    SavedReply,
    Schedule,
    SendMessageRequestAudio,
    SendMessageRequestDocument,
    SendMessageRequestImage,
    SendMessageRequestInteractive1,
    SendMessageRequestInteractive2,
    SendMessageRequestTemplate,
    SuggestRepliesRequestMessagesItem,
    Suggestions,
    Template,
    TemplateCategory,
    TemplateSyncResult,
    Tenant,
    TenantDefaultLanguage,
    TenantPlan,
    TenantStatus,
    TestDelivery,
    UpdatePaymentSettingsRequestBookingRequirementsItem,
    UpdatePaymentSettingsRequestRefundPolicy,
    UpdateReminderPolicyRequestTemplatesItem,
    User,
    UserStatus,
    WebhookEndpoint,
    WhatsAppChannel,
    WhatsAppSignupConfig,
)
from .pagination import AsyncPage, AsyncPaginator

#: An instant: an ISO 8601 string, or a datetime (a naive one is taken as UTC).
Instant = Union[str, datetime]
IfMatch = Union[int, str, None]
Options = Optional[RequestOptions]

__all__ = [
    "Auth",
    "Users",
    "ApiKeys",
    "Customers",
    "Conversations",
    "Messages",
    "Notes",
    "SavedReplies",
    "Templates",
    "ReminderPolicy",
    "Channels",
    "Media",
    "Payments",
    "Bookings",
    "Schedules",
    "Ai",
    "Webhooks",
    "WebhookDeliveries",
    "Events",
    "Realtime",
    "Settings",
    "Tenants",
    "Meta",
]


class Messages(AsyncResource):
    """``client.conversations.messages``."""

    def list(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Message]:
        """List messages. All of the conversation’s messages, newest first, inbound and outbound, with their
        delivery status."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listMessages", (conversation_id,), params, options)

    async def page(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Message]:
        """One page of :meth:`list`."""
        return await self.list(conversation_id, limit=limit, cursor=cursor, options=options).page()

    async def send(
        self,
        conversation_id: str,
        /,
        *,
        text: NotGivenOr[str] = NOT_GIVEN,
        template: NotGivenOr[SendMessageRequestTemplate] = NOT_GIVEN,
        image: NotGivenOr[SendMessageRequestImage] = NOT_GIVEN,
        document: NotGivenOr[SendMessageRequestDocument] = NOT_GIVEN,
        audio: NotGivenOr[SendMessageRequestAudio] = NOT_GIVEN,
        video: NotGivenOr[SendMessageRequestImage] = NOT_GIVEN,
        interactive: NotGivenOr[Union[SendMessageRequestInteractive1, SendMessageRequestInteractive2]] = NOT_GIVEN,
        fallback_template: NotGivenOr[SendMessageRequestTemplate] = NOT_GIVEN,
        send_at: NotGivenOr[Instant] = NOT_GIVEN,
        options: Options = None,
    ) -> Message:
        """Send a message. Exactly one of `text`, `template` (an approved template by name and language, with
        its parameters), `image`, `document`, `audio`, `video` (an https `url`, a `caption`, a document’s
        `filename`; checked like webhook URLs) or `interactive` (up to 3 reply `buttons`, or a `list` of up
        to 10 rows), each within WhatsApp’s limits (422 naming the limit). On WhatsApp, after the 24-hour
        window (`window_expires_at`) only templates may be sent: a message with `fallback_template` sends
        that template instead, else 422 `outside_service_window`. `send_at` schedules it (`scheduled`,
        cancelable until it goes); at its time the window is decided again, and a message that cannot go
        fails with `conversation.message.failed`. Answered 202 with the message `queued`; its status then
        moves to `sent`, `delivered` and `read` (or `failed`, with `error` saying why), each with an event."""
        params = {
            "text": text,
            "template": template,
            "image": image,
            "document": document,
            "audio": audio,
            "video": video,
            "interactive": interactive,
            "fallback_template": fallback_template,
            "send_at": send_at,
        }
        return await self._call("sendMessage", (conversation_id,), params, options=options)

    async def cancel(self, conversation_id: str, message_id: str, /, *, options: Options = None) -> Message:
        """Cancel a scheduled message. A message given `send_at` is `canceled` if it has not gone yet; 409
        `message_not_scheduled` after."""
        return await self._call("cancelMessage", (conversation_id, message_id), {}, options=options)


class Notes(AsyncResource):
    """``client.conversations.notes``."""

    def list(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Note]:
        """List notes. The team’s notes on the conversation, newest first. The customer never sees them."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listNotes", (conversation_id,), params, options)

    async def page(
        self,
        conversation_id: str,
        /,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Note]:
        """One page of :meth:`list`."""
        return await self.list(conversation_id, limit=limit, cursor=cursor, options=options).page()

    async def create(self, conversation_id: str, /, *, text: str, options: Options = None) -> Note:
        """Add a note. A note for the team: stored with its author and listed with the conversation’s notes,
        never sent to the customer, and announced by no event (webhook receivers hear only what happens
        with the customer)."""
        params = {"text": text}
        return await self._call("createNote", (conversation_id,), params, options=options)

    async def update(
        self,
        conversation_id: str,
        note_id: str,
        /,
        *,
        text: str,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Note:
        """Edit a note. Replaces the note’s text, sets `edited_at` and moves `version` on; the same text again
        answers the note unchanged. Only its author may (403 `not_note_author` otherwise, admins included:
        they may delete a note, not reword it). With `If-Match`, an edit of a version since changed is 412."""
        params = {"text": text}
        return await self._call("updateNote", (conversation_id, note_id), params, if_match=if_match, options=options)

    async def delete(
        self,
        conversation_id: str,
        note_id: str,
        /,
        *,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> None:
        """Delete a note. Its author deletes it; an admin may delete anyone’s (403 `not_note_author`
        otherwise). With `If-Match`, a version since changed is 412."""
        await self._call("deleteNote", (conversation_id, note_id), {}, if_match=if_match, options=options)


class Auth(AuthExtension):
    """``client.auth``: Login sessions: access and refresh tokens, logout, and who the caller is."""

    async def me(self, *, options: Options = None) -> Me:
        """Who am I. The calling credential, its role and its tenant: handy to check that a key or token
        works."""
        return await self._call("getMe", (), {}, options=options)


class Users(AsyncResource):
    """``client.users``: The people of a tenant, with roles `admin` and `agent`."""

    async def create(
        self,
        *,
        email: str,
        password: str,
        name: NotGivenOr[str] = NOT_GIVEN,
        role: NotGivenOr[Role] = NOT_GIVEN,
        options: Options = None,
    ) -> User:
        """Create a user. Adds a user who can log in to this tenant. `role` defaults to `agent`.  Needs the
        `admin` role."""
        params = {"email": email, "password": password, "name": name, "role": role}
        return await self._call("createUser", (), params, options=options)

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[User]:
        """List users. The tenant’s users, newest first, without password hashes."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listUsers", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[User]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def get(self, id: str, /, *, options: Options = None) -> User:
        """Get a user. A user of the caller’s tenant; another tenant’s user is 404."""
        return await self._call("getUser", (id,), {}, options=options)

    async def update(
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
        """Update a user. Changes the name, role, status or password. A new password or `status: disabled`
        ends the user’s sessions; `status: disabled` also unassigns their unresolved conversations, moments
        later (each with `conversation.updated`). The last active admin cannot be demoted or disabled, and
        nobody can demote or disable themselves.  Needs the `admin` role."""
        params = {"name": name, "role": role, "status": status, "password": password}
        return await self._call("updateUser", (id,), params, if_match=if_match, options=options)


class ApiKeys(AsyncResource):
    """``client.api_keys``: Keys for server-to-server calls (`sk_…`), shown once."""

    async def create(
        self,
        *,
        name: str,
        role: NotGivenOr[Role] = NOT_GIVEN,
        options: Options = None,
    ) -> NewApiKey:
        """Create an API key. The key is in this response only (a retry with the same Idempotency-Key within
        24 h replays it). Only its SHA-256 is stored. A tenant holds at most 50 keys.  Needs the `admin`
        role."""
        params = {"name": name, "role": role}
        return await self._call("createApiKey", (), params, options=options)

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[ApiKey]:
        """List API keys. Prefix, name, role and `last_used_at` of each key; never the key.  Needs the `admin`
        role."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listApiKeys", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[ApiKey]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def revoke(self, id: str, /, *, options: Options = None) -> None:
        """Revoke an API key. Effective on the next request: authentication reads the key on every request,
        without a cache.  Needs the `admin` role."""
        await self._call("revokeApiKey", (id,), {}, options=options)


class Customers(CustomersExtension):
    """``client.customers``: The people a tenant talks to and books, found by id or phone number."""

    def list(
        self,
        *,
        phone: NotGivenOr[str] = NOT_GIVEN,
        name: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Customer]:
        """List customers. Newest first. Customers are created by their first contact: an inbound message, a
        conversation or a booking by phone. `phone` finds the one customer with that number (a page of one,
        or none). `name` lists those whose name, or the rest of it from one of its next four words (split
        at spaces, hyphens and apostrophes: `lopez` finds María López and Ana García-López), starts with
        it, A to Z by what matched, each once, ignoring case and accents (not with `phone`: 400
        `invalid_query`). A customer's conversations and bookings are `GET /conversations?customer_id=` and
        `GET /bookings?customer_id=`."""
        params = {"phone": phone, "name": name, "limit": limit, "cursor": cursor}
        return self._list("listCustomers", (), params, options)

    async def page(
        self,
        *,
        phone: NotGivenOr[str] = NOT_GIVEN,
        name: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Customer]:
        """One page of :meth:`list`."""
        return await self.list(phone=phone, name=name, limit=limit, cursor=cursor, options=options).page()

    async def get(self, id: str, /, *, options: Options = None) -> Customer:
        """Get a customer. The customer with their phone number and name."""
        return await self._call("getCustomer", (id,), {}, options=options)

    async def update(
        self,
        id: str,
        /,
        *,
        name: NotGivenOr[Optional[str]] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Customer:
        """Update a customer. Changes the customer's name (null clears it). Their conversations and bookings
        show the new name (their copies are rewritten before the answer, which moves their versions);
        events already sent keep the name they had. The phone number and the WhatsApp user id identify the
        customer and cannot be changed here."""
        params = {"name": name}
        return await self._call("updateCustomer", (id,), params, if_match=if_match, options=options)


class Conversations(AsyncResource):
    """``client.conversations``: Conversations with customers and their messages."""

    def __init__(self, transport: AsyncTransport) -> None:
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
        assignee_id: NotGivenOr[Union[str, Literal["none"]]] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Conversation]:
        """List conversations. Newest activity first. Filter by `status`, `tag`, `customer_id` or
        `assignee_id` (a user's unresolved conversations), or by `status` with one of the others; other
        combinations, and `assignee_id` with `status=resolved`, are 400 `unsupported_filter_combination`
        (every page is one DynamoDB Query). `channel`, and `assignee_id=none` (the conversations nobody is
        assigned to), combine with any of the other filters: they filter the list the others pick (a page
        that skips many may come back shorter than `limit`, with a cursor to read on)."""
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

    async def page(
        self,
        *,
        status: NotGivenOr[ConversationStatus] = NOT_GIVEN,
        tag: NotGivenOr[str] = NOT_GIVEN,
        channel: NotGivenOr[ConversationChannel] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        assignee_id: NotGivenOr[Union[str, Literal["none"]]] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Conversation]:
        """One page of :meth:`list`."""
        return await self.list(
            status=status,
            tag=tag,
            channel=channel,
            customer_id=customer_id,
            assignee_id=assignee_id,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    async def create(
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
        """Open a conversation. With a customer (by id, or by phone: found or created), optionally with a
        first outbound message (queued)."""
        params = {
            "channel": channel,
            "customer": customer,
            "channel_account_id": channel_account_id,
            "tags": tags,
            "priority": priority,
            "assignee_id": assignee_id,
            "message": message,
        }
        return await self._call("createConversation", (), params, options=options)

    async def get(self, id: str, /, *, options: Options = None) -> ConversationWithMessages:
        """Get a conversation. With its 20 newest messages, in one read."""
        return await self._call("getConversation", (id,), {}, options=options)

    async def update(
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
        """Update a conversation. Status (open → pending, snoozed, resolved; pending → open, snoozed,
        resolved; snoozed → open, pending, resolved; resolved → open), tags, assignee, priority, category.
        Snoozing needs a future `snoozed_until`."""
        params = {
            "status": status,
            "snoozed_until": snoozed_until,
            "tags": tags,
            "assignee_id": assignee_id,
            "priority": priority,
            "category": category,
        }
        return await self._call("updateConversation", (id,), params, if_match=if_match, options=options)


class SavedReplies(AsyncResource):
    """``client.saved_replies``: Canned responses the team sends often, with placeholders."""

    def list(
        self,
        *,
        shortcut: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[SavedReply]:
        """List saved replies. The team’s saved replies (canned responses), A to Z by shortcut. `shortcut`
        lists those whose shortcut starts with it, as a composer does while `/gr…` is typed."""
        params = {"shortcut": shortcut, "limit": limit, "cursor": cursor}
        return self._list("listSavedReplies", (), params, options)

    async def page(
        self,
        *,
        shortcut: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[SavedReply]:
        """One page of :meth:`list`."""
        return await self.list(shortcut=shortcut, limit=limit, cursor=cursor, options=options).page()

    async def create(self, *, shortcut: str, title: str, text: str, options: Options = None) -> SavedReply:
        """Save a reply. Text the team sends often, under a shortcut unique in the tenant. Its text may use
        placeholders, `{{customer.name}}`, `{{customer.first_name}}`, `{{customer.phone}}`,
        `{{agent.name}}`, `{{agent.first_name}}`, each with an optional fallback (`{{customer.first_name |
        there}}`); an unknown one is 422. Any user or API key may save, change and delete the team’s
        replies."""
        params = {"shortcut": shortcut, "title": title, "text": text}
        return await self._call("createSavedReply", (), params, options=options)

    async def get(self, id: str, /, *, options: Options = None) -> SavedReply:
        """Get a saved reply. The saved reply, its placeholders as written."""
        return await self._call("getSavedReply", (id,), {}, options=options)

    async def update(
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
        """Change a saved reply. Changes its shortcut, title or text (the values sent; the same values again
        change nothing). A shortcut another reply has is 409 `shortcut_taken`."""
        params = {"shortcut": shortcut, "title": title, "text": text}
        return await self._call("updateSavedReply", (id,), params, if_match=if_match, options=options)

    async def delete(self, id: str, /, *, options: Options = None) -> None:
        """Delete a saved reply. Its shortcut is free again at once."""
        await self._call("deleteSavedReply", (id,), {}, options=options)

    async def render(
        self,
        id: str,
        /,
        *,
        conversation_id: str,
        options: Options = None,
    ) -> RenderedSavedReply:
        """Fill in a saved reply. The reply’s text with its placeholders filled in for one conversation:
        `customer.*` from its customer, `agent.*` from the user asking (an API key has no name). Nothing is
        sent: send `text` as a message, changed or not (a text that long names make longer than 4,096
        characters, or that is empty, is 422 there)."""
        params = {"conversation_id": conversation_id}
        return await self._call("renderSavedReply", (id,), params, options=options)


class Templates(AsyncResource):
    """``client.templates``."""

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Template]:
        """List message templates. The tenant’s WhatsApp message templates (and sandbox ones), newest first,
        with their review status."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listTemplates", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Template]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def create(
        self,
        *,
        channel: ConversationChannel,
        name: str,
        language: str,
        category: TemplateCategory,
        body: CreateTemplateRequestBody,
        channel_account_id: NotGivenOr[str] = NOT_GIVEN,
        header: NotGivenOr[Union[CreateTemplateRequestHeader1, CreateTemplateRequestHeader2, None]] = NOT_GIVEN,
        footer: NotGivenOr[Optional[CreateTemplateRequestFooter]] = NOT_GIVEN,
        buttons: NotGivenOr[List[Union[CreateTemplateRequestButtonsItem1, CreateTemplateRequestButtonsItem2]]] = NOT_GIVEN,
        options: Options = None,
    ) -> Template:
        """Create a message template. Submits a template for review: to Meta, through the WhatsApp Business
        Account of the number (`channel_account_id`, or the tenant’s only one), or to the sandbox, which
        approves it after a few seconds (and rejects one whose name contains `reject`). Only templates may
        start a conversation or be sent after the 24-hour window. Meta’s limits are checked first: body up
        to 1024 characters with numbered parameters and one example each, header text 60 (one parameter),
        footer 60, up to 10 buttons (2 URL buttons), button text 25. The status follows Meta’s review
        (`template.status_updated`). Sent again after a 503, a create that Meta had already accepted adopts
        Meta’s template; a template of that name with other content at Meta is `template_exists`.  Needs
        the `admin` role."""
        params = {
            "channel": channel,
            "name": name,
            "language": language,
            "category": category,
            "body": body,
            "channel_account_id": channel_account_id,
            "header": header,
            "footer": footer,
            "buttons": buttons,
        }
        return await self._call("createTemplate", (), params, options=options)

    async def sync(
        self,
        *,
        channel_account_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> TemplateSyncResult:
        """Sync templates from Meta. Reads the number’s WhatsApp Business Account templates from Meta:
        statuses and reasons of known ones move (with their events, should a status webhook have been
        missed), and templates made in WhatsApp Manager are added.  Needs the `admin` role."""
        params = {"channel_account_id": channel_account_id}
        return await self._call("syncTemplates", (), params, options=options)

    async def get(self, id: str, /, *, options: Options = None) -> Template:
        """Get a message template. The template, its review status and any rejection reason."""
        return await self._call("getTemplate", (id,), {}, options=options)

    async def delete(self, id: str, /, *, options: Options = None) -> None:
        """Delete a message template. Deletes the template here and from the WhatsApp Business Account (Meta
        keeps its name blocked for 30 days).  Needs the `admin` role."""
        await self._call("deleteTemplate", (id,), {}, options=options)


class ReminderPolicy(AsyncResource):
    """``client.reminder_policy``."""

    async def get(self, *, options: Options = None) -> ReminderPolicy:
        """Get the booking reminder policy. When and with which template bookings are reminded (disabled until
        set)."""
        return await self._call("getReminderPolicy", (), {}, options=options)

    async def update(
        self,
        *,
        enabled: NotGivenOr[bool] = NOT_GIVEN,
        offsets_minutes: NotGivenOr[List[int]] = NOT_GIVEN,
        templates: NotGivenOr[List[UpdateReminderPolicyRequestTemplatesItem]] = NOT_GIVEN,
        default_language: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> ReminderPolicy:
        """Change the booking reminder policy. Changes the fields given. Each pending or confirmed booking
        gets one reminder per offset before its start, in its conversation (or the customer’s), as the
        chosen template; exactly once each. Reminders are scheduled when a booking is created or changed:
        moved when it is rescheduled, dropped when it is cancelled. The customer’s taps act on the booking:
        Confirm confirms it, Cancel cancels it (within the tenant’s rules), Reschedule offers the nearest
        free times as a list, and a pick moves the booking.  Needs the `admin` role."""
        params = {
            "enabled": enabled,
            "offsets_minutes": offsets_minutes,
            "templates": templates,
            "default_language": default_language,
        }
        return await self._call("updateReminderPolicy", (), params, options=options)


class Channels(AsyncResource):
    """``client.channels``: The sandbox and WhatsApp Cloud API numbers, and Meta’s webhook."""

    async def list(self, *, options: Options = None) -> List[Union[SandboxChannel, WhatsAppChannel]]:
        """List channels. The sandbox, always there, and the connected WhatsApp numbers (never their secrets)."""
        return (await self._call("listChannels", (), {}, options=options))["data"]  # type: ignore[no-any-return]

    async def connect_whatsapp(
        self,
        *,
        phone_number_id: str,
        access_token: str,
        display_phone_number: NotGivenOr[str] = NOT_GIVEN,
        waba_id: NotGivenOr[str] = NOT_GIVEN,
        app_secret: NotGivenOr[str] = NOT_GIVEN,
        verify_token: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> ConnectedWhatsApp:
        """Connect a WhatsApp number. Connects a number with a long-lived business token. With the platform’s
        Meta app (the usual case), Meta is asked whether the token is valid, long-lived and has the
        WhatsApp permissions, and the app is subscribed to the account (`waba_id`); in every case the Graph
        API must confirm that the token controls the number (422 otherwise). A number served by the
        tenant’s own Meta app gives that app’s `app_secret` and a `verify_token` instead. Secrets are
        encrypted and never returned.  Needs the `admin` role."""
        params = {
            "phone_number_id": phone_number_id,
            "access_token": access_token,
            "display_phone_number": display_phone_number,
            "waba_id": waba_id,
            "app_secret": app_secret,
            "verify_token": verify_token,
        }
        return await self._call("connectWhatsApp", (), params, options=options)

    async def whatsapp_signup_config(self, *, options: Options = None) -> WhatsAppSignupConfig:
        """How to run Embedded Signup. What a browser needs to run Meta’s Embedded Signup with the platform’s
        Meta app: its id, its signup configuration and the Graph API version; `available: false` when the
        deployment has none (then connect with a token)."""
        return await self._call("getWhatsAppSignupConfig", (), {}, options=options)

    async def connect_whatsapp_by_embedded_signup(
        self,
        *,
        code: str,
        waba_id: str,
        phone_number_id: str,
        options: Options = None,
    ) -> ConnectedWhatsApp:
        """Connect a WhatsApp number through Embedded Signup. Finishes Meta’s Embedded Signup, run in the
        dashboard with the platform’s Meta app: the OAuth `code` is exchanged for a business integration
        token, which is checked, and the app is subscribed to the account’s webhooks; then the number is
        connected as by `POST /channels/whatsapp`.  Needs the `admin` role."""
        params = {"code": code, "waba_id": waba_id, "phone_number_id": phone_number_id}
        return await self._call("connectWhatsAppByEmbeddedSignup", (), params, options=options)

    async def sandbox_inbound(
        self,
        *,
        from_: str,
        name: NotGivenOr[str] = NOT_GIVEN,
        text: NotGivenOr[str] = NOT_GIVEN,
        media: NotGivenOr[InjectSandboxMessageRequestMedia] = NOT_GIVEN,
        provider_message_id: NotGivenOr[str] = NOT_GIVEN,
        payload: NotGivenOr[str] = NOT_GIVEN,
        sent_at: NotGivenOr[Instant] = NOT_GIVEN,
        options: Options = None,
    ) -> Union[DuplicateInbound, InboundMessage]:
        """Inject a customer message (sandbox). A customer message on the sandbox channel, through the same
        code path as a WhatsApp message: it joins the customer’s unresolved conversation or opens a new
        one. A small file (`media`, base64, at most 150 KB, WhatsApp’s types) is stored at once, as a
        WhatsApp customer’s would be after its copy. The sandbox provider accepts every outbound message,
        except text containing `[fail]`. The sandbox plays WhatsApp’s 24-hour window: `sent_at` in the past
        (when the customer wrote) leaves it closed once 24 hours have passed."""
        params = {
            "from_": from_,
            "name": name,
            "text": text,
            "media": media,
            "provider_message_id": provider_message_id,
            "payload": payload,
            "sent_at": sent_at,
        }
        return await self._call("injectSandboxMessage", (), params, options=options)


class Media(AsyncResource):
    """``client.media``."""

    async def create_upload(
        self,
        *,
        type: MessageMediaType,
        mime_type: str,
        size: int,
        filename: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> MediaUpload:
        """Upload a file to send. Declares a file (its kind, MIME type and size, within WhatsApp’s limits:
        image 5 MB JPEG or PNG, video 16 MB MP4 or 3GPP, audio 16 MB AAC, AMR, MP3, MP4 or OGG, document
        100 MB PDF, text or Office, sticker 500 KB WebP) and returns a presigned URL to PUT its bytes to,
        for 15 minutes. Then send it: `{"image": {"media_id": "med_…"}}` on a conversation’s messages.
        Files are kept for the media retention (90 days)."""
        params = {"type": type, "mime_type": mime_type, "size": size, "filename": filename}
        return await self._call("createMediaUpload", (), params, options=options)


class Payments(AsyncResource):
    """``client.payments``."""

    def list(
        self,
        *,
        status: NotGivenOr[PaymentStatus] = NOT_GIVEN,
        booking_id: NotGivenOr[str] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        from_: NotGivenOr[Instant] = NOT_GIVEN,
        to: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Payment]:
        """List payments. Newest first; filter by `status`, `booking_id`, `customer_id` and the creation time
        (`from`, `to`)."""
        params = {
            "status": status,
            "booking_id": booking_id,
            "customer_id": customer_id,
            "from_": from_,
            "to": to,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listPayments", (), params, options)

    async def page(
        self,
        *,
        status: NotGivenOr[PaymentStatus] = NOT_GIVEN,
        booking_id: NotGivenOr[str] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        from_: NotGivenOr[Instant] = NOT_GIVEN,
        to: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Payment]:
        """One page of :meth:`list`."""
        return await self.list(
            status=status,
            booking_id=booking_id,
            customer_id=customer_id,
            from_=from_,
            to=to,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    async def create(
        self,
        *,
        amount: float,
        currency: str,
        booking_id: NotGivenOr[str] = NOT_GIVEN,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        purpose: NotGivenOr[PaymentPurpose] = NOT_GIVEN,
        description: NotGivenOr[str] = NOT_GIVEN,
        expires_in_minutes: NotGivenOr[int] = NOT_GIVEN,
        send: NotGivenOr[bool] = NOT_GIVEN,
        options: Options = None,
    ) -> CreatedPayment:
        """Create a payment link. A link for a booking and/or a conversation, with the tenant’s provider (the
        sandbox, or Stripe Checkout). `send: true` also sends it into the conversation as a message.
        Amounts are whole minor units from 1 to 99999999. Emits `payment.created`."""
        params = {
            "amount": amount,
            "currency": currency,
            "booking_id": booking_id,
            "conversation_id": conversation_id,
            "purpose": purpose,
            "description": description,
            "expires_in_minutes": expires_in_minutes,
            "send": send,
        }
        return await self._call("createPayment", (), params, options=options)

    async def get_settings(self, *, options: Options = None) -> PaymentSettings:
        """Get the payment settings. The provider, refund policy, hold and per-service requirements. Stripe’s
        secrets are never returned."""
        return await self._call("getPaymentSettings", (), {}, options=options)

    async def update_settings(
        self,
        *,
        provider: NotGivenOr[PaymentProvider] = NOT_GIVEN,
        refund_policy: NotGivenOr[UpdatePaymentSettingsRequestRefundPolicy] = NOT_GIVEN,
        hold_minutes: NotGivenOr[int] = NOT_GIVEN,
        booking_requirements: NotGivenOr[List[UpdatePaymentSettingsRequestBookingRequirementsItem]] = NOT_GIVEN,
        options: Options = None,
    ) -> PaymentSettings:
        """Change the payment settings (admin). Changes what is sent. `provider: stripe` needs Stripe
        connected first.  Needs the `admin` role."""
        params = {
            "provider": provider,
            "refund_policy": refund_policy,
            "hold_minutes": hold_minutes,
            "booking_requirements": booking_requirements,
        }
        return await self._call("updatePaymentSettings", (), params, options=options)

    async def connect_stripe(
        self,
        *,
        secret_key: str,
        webhook_secret: str,
        options: Options = None,
    ) -> PaymentSettings:
        """Connect Stripe (admin). A restricted key (write access to Checkout Sessions and Refunds) and the
        signing secret of the endpoint added in Stripe at `webhook_path`. The key is checked with a call to
        Stripe; both are sealed and never returned. The provider becomes `stripe`.  Needs the `admin` role."""
        params = {"secret_key": secret_key, "webhook_secret": webhook_secret}
        return await self._call("connectStripe", (), params, options=options)

    async def get(self, id: str, /, *, options: Options = None) -> Payment:
        """Get a payment. The payment, its link and its refunds."""
        return await self._call("getPayment", (id,), {}, options=options)

    async def refund(
        self,
        id: str,
        /,
        *,
        amount: NotGivenOr[float] = NOT_GIVEN,
        options: Options = None,
    ) -> Payment:
        """Refund a payment (admin). Gives back `amount` minor units (default: all that is left), at most what
        was paid less what was refunded. Safe to race: each refund is reserved on the payment before it is
        sent. Emits `payment.refunded` once the provider takes it.  Needs the `admin` role."""
        params = {"amount": amount}
        return await self._call("refundPayment", (id,), params, options=options)

    async def cancel(self, id: str, /, *, options: Options = None) -> Payment:
        """Withdraw an unpaid link. The link closes (`payment.canceled`); a booking waiting for it is
        cancelled (`payment_canceled`). A customer who pays at that moment is refunded in full."""
        return await self._call("cancelPayment", (id,), {}, options=options)

    async def send(self, id: str, /, *, options: Options = None) -> Message:
        """Send the link into the conversation. Sends (or sends again) an open link into the payment’s
        conversation, as a message."""
        return await self._call("sendPaymentLink", (id,), {}, options=options)


class Bookings(AsyncResource):
    """``client.bookings``: Appointments with a lifecycle, rescheduling and no double booking of a resource."""

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
    ) -> AsyncPaginator[Booking]:
        """List bookings. Latest start first; `from` and `to` bound the start time."""
        params = {
            "status": status,
            "customer_id": customer_id,
            "from_": from_,
            "to": to,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listBookings", (), params, options)

    async def page(
        self,
        *,
        status: NotGivenOr[BookingStatus] = NOT_GIVEN,
        customer_id: NotGivenOr[str] = NOT_GIVEN,
        from_: NotGivenOr[Instant] = NOT_GIVEN,
        to: NotGivenOr[Instant] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Booking]:
        """One page of :meth:`list`."""
        return await self.list(
            status=status,
            customer_id=customer_id,
            from_=from_,
            to=to,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    async def create(
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
        metadata: NotGivenOr[Dict[str, Union[str, float, bool, None]]] = NOT_GIVEN,
        status: NotGivenOr[CreateBookingRequestStatus] = NOT_GIVEN,
        payment: NotGivenOr[Optional[CreateBookingRequestPayment]] = NOT_GIVEN,
        send_payment_link: NotGivenOr[bool] = NOT_GIVEN,
        options: Options = None,
    ) -> Booking:
        """Create a booking. Created `confirmed` unless `status: "pending"`. Times take any offset and are
        stored in UTC; a booking lasts at most 24 hours. Two active bookings of one `resource_id` never
        overlap (half-open intervals): the second is 409 `booking_conflict`."""
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
            "payment": payment,
            "send_payment_link": send_payment_link,
        }
        return await self._call("createBooking", (), params, options=options)

    async def availability(
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
        """A resource's free time. The busy and free time of one `resource_id` between `from` and `to` (at
        most 31 days; the schedule keeps the last 24 hours and the future, so an earlier `from` is answered
        from 24 hours ago), and with `duration_minutes` the slots still bookable. Pending and confirmed
        bookings hold time; cancelled, completed and no-show ones do not. A slot listed here can still be
        taken before it is booked: the booking is then 409 `booking_conflict`."""
        params = {
            "resource_id": resource_id,
            "from_": from_,
            "to": to,
            "duration_minutes": duration_minutes,
            "step_minutes": step_minutes,
            "reschedule_booking_id": reschedule_booking_id,
        }
        return await self._call("getAvailability", (), params, options=options)

    async def get(self, id: str, /, *, options: Options = None) -> Booking:
        """Get a booking. The booking, with its cancellation and reschedule history."""
        return await self._call("getBooking", (id,), {}, options=options)

    async def update(
        self,
        id: str,
        /,
        *,
        service: NotGivenOr[str] = NOT_GIVEN,
        notes: NotGivenOr[Optional[str]] = NOT_GIVEN,
        metadata: NotGivenOr[Dict[str, Union[str, float, bool, None]]] = NOT_GIVEN,
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
        """Update a booking. Details, a reschedule (new `start_at`/`end_at`, recorded in `rescheduled_from`)
        and status changes: pending → confirmed or cancelled; confirmed → completed, cancelled or no_show
        (the first and last once it has started); the last three are final."""
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
        return await self._call("updateBooking", (id,), params, if_match=if_match, options=options)

    async def cancel(
        self,
        id: str,
        /,
        *,
        reason: NotGivenOr[str] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Booking:
        """Cancel a booking. The record stays, `cancelled`, with `cancellation`. Cancelling twice is harmless;
        a completed or no-show booking is 409."""
        params = {"reason": reason}
        return await self._call("cancelBooking", (id,), params, if_match=if_match, options=options)

    async def notify(
        self,
        id: str,
        /,
        *,
        language: NotGivenOr[TenantDefaultLanguage] = NOT_GIVEN,
        options: Options = None,
    ) -> Message:
        """Tell the customer about their booking. Sends the booking’s customer a message saying where it
        stands, in the booking’s conversation (else the customer’s most recently active one), in `language`
        (default: the tenant’s), with the time in the booking’s zone: confirmed ("Hi Maria, your Haircut is
        confirmed for Tuesday 24 November at 15:00. See you then!"), moved (with the time it had),
        requested (pending) or cancelled. Answered 202 with the message `queued`, as `POST
        /conversations/{id}/messages` is; it is sent as any message is, with its events. A booking whose
        customer has no conversation, or one that is over (completed, no-show), is 422."""
        params = {"language": language}
        return await self._call("notifyBookingCustomer", (id,), params, options=options)


class Schedules(AsyncResource):
    """``client.schedules``: Appointments with a lifecycle, rescheduling and no double booking of a resource."""

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Schedule]:
        """List schedules. The opening hours of each resource that has them, A to Z by resource."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listSchedules", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Schedule]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def create(
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
        """Set a resource’s opening hours. Hours for each weekday and for particular dates, as wall-clock
        times in `timezone` (so 09:00 stays 09:00 across daylight-saving changes). Once a resource has a
        schedule, an active booking of it must lie wholly within its hours (422 `outside_opening_hours`),
        and availability counts the rest as `closed`; bookings made before keep their time. With buffers,
        each booking made or moved from then on also keeps the resource free for that long before and after
        it (409 `booking_conflict` when another booking is in that time). A resource without a schedule is
        open at all times.  Needs the `admin` role."""
        params = {
            "resource_id": resource_id,
            "timezone": timezone,
            "weekly_hours": weekly_hours,
            "date_overrides": date_overrides,
            "buffer_before_minutes": buffer_before_minutes,
            "buffer_after_minutes": buffer_after_minutes,
        }
        return await self._call("createSchedule", (), params, options=options)

    async def get(self, resource_id: str, /, *, options: Options = None) -> Schedule:
        """Get a resource’s opening hours. The schedule of one resource; 404 when it has none (it is open at
        all times)."""
        return await self._call("getSchedule", (resource_id,), {}, options=options)

    async def update(
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
        """Change a resource’s opening hours. Changes what is sent: each weekday in `weekly_hours` (the days
        left out keep their hours; `[]` closes one), `date_overrides` as the whole list, `timezone`, the
        buffers. Bookings already made keep their time and their buffers.  Needs the `admin` role."""
        params = {
            "timezone": timezone,
            "weekly_hours": weekly_hours,
            "date_overrides": date_overrides,
            "buffer_before_minutes": buffer_before_minutes,
            "buffer_after_minutes": buffer_after_minutes,
        }
        return await self._call("updateSchedule", (resource_id,), params, if_match=if_match, options=options)

    async def delete(self, resource_id: str, /, *, if_match: IfMatch = None, options: Options = None) -> None:
        """Remove a resource’s opening hours. The resource is open at all times again.  Needs the `admin`
        role."""
        await self._call("deleteSchedule", (resource_id,), {}, if_match=if_match, options=options)


class Ai(AsyncResource):
    """``client.ai``: Analysis, reply suggestions and categorisation."""

    async def analyze(
        self,
        *,
        text: NotGivenOr[str] = NOT_GIVEN,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        message_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> Analysis:
        """Analyse a text or a message. Sentiment, intent (and the top three), entities (dates resolved in the
        tenant’s time zone, emails, phones, money), language and a handoff verdict, for `{text}` or a
        stored `{conversation_id, message_id}`."""
        params = {"text": text, "conversation_id": conversation_id, "message_id": message_id}
        return await self._call("analyze", (), params, options=options)

    async def suggest(
        self,
        *,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        messages: NotGivenOr[List[SuggestRepliesRequestMessagesItem]] = NOT_GIVEN,
        count: NotGivenOr[int] = NOT_GIVEN,
        options: Options = None,
    ) -> Suggestions:
        """Suggest replies. Reply suggestions for a conversation (or a transcript), grounded in the customer’s
        name and their next booking."""
        params = {"conversation_id": conversation_id, "messages": messages, "count": count}
        return await self._call("suggestReplies", (), params, options=options)

    async def categorize(
        self,
        *,
        conversation_id: str,
        apply: NotGivenOr[bool] = NOT_GIVEN,
        options: Options = None,
    ) -> Categorization:
        """Categorise a conversation. Category, candidates and suggested tags; `apply: true` sets the category
        and adds the tags (emitting `conversation.updated`)."""
        params = {"conversation_id": conversation_id, "apply": apply}
        return await self._call("categorizeConversation", (), params, options=options)


class Webhooks(AsyncResource):
    """``client.webhooks``: Signed HTTPS deliveries of events (Standard Webhooks), with attempt logs and
    replay."""

    async def create(
        self,
        *,
        url: str,
        events: List[EventFilter],
        description: NotGivenOr[str] = NOT_GIVEN,
        is_active: NotGivenOr[bool] = NOT_GIVEN,
        options: Options = None,
    ) -> NewWebhookEndpoint:
        """Register a webhook endpoint. Only `https` URLs without credentials, on port 443 or 1024–65535,
        whose host resolves to public addresses only (422 `unsafe_url`). At most 50 endpoints per tenant.
        The endpoint gets every matching event committed after this response. The signing secret is in this
        response only.  Needs the `admin` role."""
        params = {"url": url, "events": events, "description": description, "is_active": is_active}
        return await self._call("createWebhook", (), params, options=options)

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[WebhookEndpoint]:
        """List webhook endpoints. The tenant’s endpoints (at most 50), newest first; never their secrets.
        Agents get each URL’s origin only (`url_redacted`)."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listWebhooks", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[WebhookEndpoint]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def get(self, id: str, /, *, options: Options = None) -> WebhookEndpoint:
        """Get a webhook endpoint. The endpoint’s URL (for agents, its origin only: `url_redacted`),
        subscriptions and state; never its secrets."""
        return await self._call("getWebhook", (id,), {}, options=options)

    async def update(
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
        """Update a webhook endpoint. `is_active: false` stops deliveries at once: nothing new is queued, and
        pending retries end `cancelled`.  Needs the `admin` role."""
        params = {"url": url, "events": events, "description": description, "is_active": is_active}
        return await self._call("updateWebhook", (id,), params, if_match=if_match, options=options)

    async def delete(self, id: str, /, *, if_match: IfMatch = None, options: Options = None) -> None:
        """Delete a webhook endpoint. Pending retries stop; the delivery history stays readable. With
        If-Match, only that version is deleted.  Needs the `admin` role."""
        await self._call("deleteWebhook", (id,), {}, if_match=if_match, options=options)

    async def rotate_secret(
        self,
        id: str,
        /,
        *,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> RotatedWebhookEndpoint:
        """Rotate the signing secret. A new secret signs from now on; the one it replaces keeps signing too
        for 24 h (two signatures), and any older one stops at once. With If-Match, only that version is
        rotated (412 otherwise); without it, a rotation that meets a concurrent change is made again on the
        fresh endpoint, unless that change was another rotation (409 `concurrent_update`: its secret
        stands).  Needs the `admin` role."""
        return await self._call("rotateWebhookSecret", (id,), {}, if_match=if_match, options=options)

    async def test(self, id: str, /, *, options: Options = None) -> TestDelivery:
        """Send a test event. Delivers a `webhook.test` event to this endpoint now (an inactive endpoint
        receives nothing).  Needs the `admin` role."""
        return await self._call("sendTestEvent", (id,), {}, options=options)

    async def recover(
        self,
        id: str,
        /,
        *,
        since: Instant,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        options: Options = None,
    ) -> RecoveryResult:
        """Replay failed deliveries. Replays every failed delivery of this endpoint for events between `since`
        and `until` (without `until`, every one failed by the time of the call), up to 1,000 per call.
        Needs the `admin` role."""
        params = {"since": since, "until": until}
        return await self._call("recoverWebhookDeliveries", (id,), params, options=options)

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
    ) -> AsyncPaginator[Delivery]:
        """List an endpoint’s deliveries. This endpoint’s deliveries, newest first. `status` and `event_type`
        filter them; `since` and `until` bound the event’s time. A page reads at most 1,000 deliveries to
        find its matches, so a narrow `event_type` may give a short page with `has_more`."""
        params = {
            "status": status,
            "event_type": event_type,
            "since": since,
            "until": until,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listWebhookEndpointDeliveries", (id,), params, options)

    async def deliveries_page(
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
    ) -> AsyncPage[Delivery]:
        """One page of :meth:`deliveries`."""
        return await self.deliveries(
            id,
            status=status,
            event_type=event_type,
            since=since,
            until=until,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()


class WebhookDeliveries(AsyncResource):
    """``client.webhook_deliveries``: Signed HTTPS deliveries of events (Standard Webhooks), with attempt logs
    and replay."""

    def list(
        self,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        webhook_id: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Delivery]:
        """List failed deliveries. The failed-delivery view across the tenant’s endpoints, newest event first;
        `status` picks another status. `webhook_id` (a deleted endpoint’s too) and `event_type` narrow it;
        `since` and `until` bound the event’s time. A page reads at most 1,000 deliveries to find its
        matches, so a narrow `event_type` may give a short page with `has_more`."""
        params = {
            "status": status,
            "event_type": event_type,
            "since": since,
            "until": until,
            "webhook_id": webhook_id,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listWebhookDeliveries", (), params, options)

    async def page(
        self,
        *,
        status: NotGivenOr[DeliveryStatus] = NOT_GIVEN,
        event_type: NotGivenOr[EventType] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        webhook_id: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Delivery]:
        """One page of :meth:`list`."""
        return await self.list(
            status=status,
            event_type=event_type,
            since=since,
            until=until,
            webhook_id=webhook_id,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    async def get(self, id: str, /, *, options: Options = None) -> DeliveryWithPayload:
        """Get a delivery. The payload and every attempt: time, status code, duration, error, and the first 1
        KB of the response."""
        return await self._call("getWebhookDelivery", (id,), {}, options=options)

    async def retry(self, id: str, /, *, options: Options = None) -> DeliveryReplay:
        """Replay a delivery. Starts a new cycle with the full retry schedule. A delivery still pending is
        409.  Needs the `admin` role."""
        return await self._call("retryWebhookDelivery", (id,), {}, options=options)


class Events(AsyncResource):
    """``client.events``: Everything that happened, kept 30 days. The same envelopes are delivered to webhooks
    (see the webhooks section)."""

    def list(
        self,
        *,
        type: NotGivenOr[EventFilter] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        after: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Event]:
        """List events. The tenant’s events of the last 30 days, newest first: what a webhook may have missed.
        `type` takes an exact type or `*`, `conversation.*`, `booking.*`, `payment.*` (reserved); `since`
        and `until` bound the time; `after` (an event id) keeps only later events, read strongly
        consistent: how a realtime client resumes after a drop. A `conversation.*` page, or one of a
        conversation type, evaluates at most 1,000 events, so it may be short (even empty) with `has_more`:
        follow `next_cursor`. A message's status events (sent, delivered, read, failed) are listed a moment
        after the status moved: a poller should overlap its `since` window and dedupe on the event id."""
        params = {
            "type": type,
            "since": since,
            "until": until,
            "after": after,
            "limit": limit,
            "cursor": cursor,
        }
        return self._list("listEvents", (), params, options)

    async def page(
        self,
        *,
        type: NotGivenOr[EventFilter] = NOT_GIVEN,
        since: NotGivenOr[Instant] = NOT_GIVEN,
        until: NotGivenOr[Instant] = NOT_GIVEN,
        after: NotGivenOr[str] = NOT_GIVEN,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Event]:
        """One page of :meth:`list`."""
        return await self.list(
            type=type,
            since=since,
            until=until,
            after=after,
            limit=limit,
            cursor=cursor,
            options=options,
        ).page()

    async def get(self, id: str, /, *, options: Options = None) -> Event:
        """Get an event. One event of the last 30 days, exactly as webhooks deliver it. A receiver can fetch
        the event a delivery names instead of trusting its body, and learn whether an id is one of the
        tenant’s events."""
        return await self._call("getEvent", (id,), {}, options=options)


class Realtime(AsyncResource):
    """``client.realtime``."""

    async def create_ticket(
        self,
        *,
        types: NotGivenOr[List[EventFilter]] = NOT_GIVEN,
        conversation_id: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> RealtimeTicket:
        """Create a realtime ticket. A short-lived, single-use ticket to open a realtime WebSocket connection
        (docs/realtime.md): the socket then receives every event of the tenant committed after it opened,
        as the same envelopes as webhooks and `GET /events`, filtered by the caller’s role and by the
        optional subscription (`types`, `conversation_id`). A ticket used twice, expired or presented for
        another tenant is refused at the handshake (401). At most 200 connections per tenant and 10 per
        user or key."""
        params = {"types": types, "conversation_id": conversation_id}
        return await self._call("createRealtimeTicket", (), params, options=options)


class Settings(AsyncResource):
    """``client.settings``: The operator API: tenants, with the platform token."""

    async def get(self, *, options: Options = None) -> Tenant:
        """Get the tenant’s settings. The caller’s own tenant: its name, plan, time zone and default language."""
        return await self._call("getSettings", (), {}, options=options)

    async def update(
        self,
        *,
        name: NotGivenOr[str] = NOT_GIVEN,
        timezone: NotGivenOr[str] = NOT_GIVEN,
        default_language: NotGivenOr[TenantDefaultLanguage] = NOT_GIVEN,
        if_match: IfMatch = None,
        options: Options = None,
    ) -> Tenant:
        """Update the tenant’s settings. Admins change their own tenant’s name, time zone (in which the
        dashboard, reminders and the AI say times) or default language. The plan, its limit and the status
        are the operator’s.  Needs the `admin` role."""
        params = {"name": name, "timezone": timezone, "default_language": default_language}
        return await self._call("updateSettings", (), params, if_match=if_match, options=options)


class Tenants(AsyncResource):
    """``client.tenants``: The operator API: tenants, with the platform token."""

    async def create(
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
        """Create a tenant. Creates the tenant, its first admin and its first API key in one transaction. The
        key is in this response only."""
        params = {
            "name": name,
            "plan": plan,
            "admin": admin,
            "rate_limit_per_hour": rate_limit_per_hour,
            "timezone": timezone,
            "default_language": default_language,
        }
        return await self._call("createTenant", (), params, options=options)

    def list(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPaginator[Tenant]:
        """List tenants. Every tenant, newest first."""
        params = {"limit": limit, "cursor": cursor}
        return self._list("listTenants", (), params, options)

    async def page(
        self,
        *,
        limit: NotGivenOr[int] = NOT_GIVEN,
        cursor: NotGivenOr[str] = NOT_GIVEN,
        options: Options = None,
    ) -> AsyncPage[Tenant]:
        """One page of :meth:`list`."""
        return await self.list(limit=limit, cursor=cursor, options=options).page()

    async def get(self, id: str, /, *, options: Options = None) -> Tenant:
        """Get a tenant. The tenant, with its effective hourly limit."""
        return await self._call("getTenant", (id,), {}, options=options)

    async def update(
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
        """Update a tenant. Changes the name, plan, limit (enterprise only, and required there), status, time
        zone or default language. `status: suspended` makes every credential of the tenant fail with 403
        from the next request on."""
        params = {
            "name": name,
            "plan": plan,
            "rate_limit_per_hour": rate_limit_per_hour,
            "status": status,
            "timezone": timezone,
            "default_language": default_language,
        }
        return await self._call("updateTenant", (id,), params, if_match=if_match, options=options)


class Meta(AsyncResource):
    """``client.meta``: This document."""

    async def openapi(self, *, options: Options = None) -> OpenApiDocument:
        """This document. The OpenAPI 3.1 document of this API: no credentials needed, not rate-limited."""
        return await self._call("getOpenApiDocument", (), {}, options=options)
