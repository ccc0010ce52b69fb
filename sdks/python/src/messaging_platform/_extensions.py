"""Generated from ``_async_extensions.py`` by scripts/generate_sync.py: edit that file.

The synchronous resources' hand-written parts, which the generated classes of resources.py inherit."""
from __future__ import annotations

from typing import Optional

from ._core import RequestOptions
from ._sync import SyncResource, SyncSession, SyncTransport
from ._session import SessionState
from .errors import AuthenticationError, MessagingError
from .models import Customer, Tokens

__all__ = ["AuthExtension", "CustomersExtension"]


class CustomersExtension(SyncResource):
    """A lookup by phone number, on top of ``customers.list``."""

    def find_by_phone(self, phone: str, /, *, options: Optional[RequestOptions] = None) -> Optional[Customer]:
        """The customer with this phone number (E.164, e.g. ``+4915112345678``), or None."""
        # Without a number the request would be the whole list, and its first customer someone else.
        if not isinstance(phone, str) or not phone.strip():
            raise MessagingError("find_by_phone needs a phone number.")
        found = self.page(phone=phone, options=options).data  # type: ignore[attr-defined]
        return found[0] if found else None


class AuthExtension(SyncResource):
    """The login session's lifecycle: logout and refresh, which change the client's credentials."""

    def __init__(self, transport: SyncTransport, session: Optional[SyncSession]) -> None:
        super().__init__(transport)
        self._session = session

    def logout(self, *, options: Optional[RequestOptions] = None) -> None:
        """Ends the login session at once: its tokens stop working, and this client forgets them. A session
        the API already ended counts as logged out. (An API key is revoked with ``api_keys.revoke``; logout
        with one is a BadRequestError, ``not_a_session``.)"""
        try:
            self._transport.request(SessionState.logout_spec(options))
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
