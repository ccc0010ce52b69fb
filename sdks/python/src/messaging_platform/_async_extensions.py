"""The asynchronous resources' hand-written parts: what the contract cannot say. The generated classes of
``async_resources.py`` inherit them (``Customers`` from ``CustomersExtension``…); ``_extensions.py`` is made
from this file by scripts/generate_sync.py.
"""
from __future__ import annotations

from typing import Optional

from ._core import RequestOptions
from ._async import AsyncResource, AsyncSession, AsyncTransport
from ._session import SessionState
from .errors import AuthenticationError, MessagingError
from .models import Customer, Tokens

__all__ = ["AuthExtension", "CustomersExtension"]


class CustomersExtension(AsyncResource):
    """A lookup by phone number, on top of ``customers.list``."""

    async def find_by_phone(self, phone: str, /, *, options: Optional[RequestOptions] = None) -> Optional[Customer]:
        """The customer with this phone number (E.164, e.g. ``+4915112345678``), or None."""
        # Without a number the request would be the whole list, and its first customer someone else.
        if not isinstance(phone, str) or not phone.strip():
            raise MessagingError("find_by_phone needs a phone number.")
        found = (await self.page(phone=phone, options=options)).data  # type: ignore[attr-defined]
        return found[0] if found else None


class AuthExtension(AsyncResource):
    """The login session's lifecycle: logout and refresh, which change the client's credentials."""

    def __init__(self, transport: AsyncTransport, session: Optional[AsyncSession]) -> None:
        super().__init__(transport)
        self._session = session

    async def logout(self, *, options: Optional[RequestOptions] = None) -> None:
        """Ends the login session at once: its tokens stop working, and this client forgets them. A session
        the API already ended counts as logged out. (An API key is revoked with ``api_keys.revoke``; logout
        with one is a BadRequestError, ``not_a_session``.)"""
        try:
            await self._transport.request(SessionState.logout_spec(options))
        except AuthenticationError:
            if self._session is None:
                raise
        if self._session is not None:
            await self._session.clear()

    async def refresh(self) -> Tokens:
        """Rotates the session's tokens now (the client also does it by itself before they expire)."""
        if self._session is None:
            raise MessagingError("refresh() needs a login session (AsyncMessagingClient.login).")
        return await self._session.refresh()
