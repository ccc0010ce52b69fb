"""Cursor pagination.

A list method returns a :class:`Paginator` (:class:`AsyncPaginator` on the async client): iterate it to walk
every item of every page, fetching pages as needed, or ask for one :meth:`~Paginator.page` and keep its
``next_cursor``::

    for conversation in client.conversations.list(status="open"):
        ...
    page = client.conversations.page(limit=20)          # same as client.conversations.list(limit=20).page()
    page.data, page.has_more, page.next_cursor
    later = client.conversations.page(limit=20, cursor=page.next_cursor)
"""
from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Dict, Generic, Iterator, List, Mapping, Optional, TypeVar

from .errors import MessagingError

T = TypeVar("T")

__all__ = ["Page", "AsyncPage", "Paginator", "AsyncPaginator"]

#: Fetches the page at a cursor (None: the first page) and returns the list body.
FetchPage = Callable[[Optional[str]], Mapping[str, Any]]
AsyncFetchPage = Callable[[Optional[str]], Awaitable[Mapping[str, Any]]]


class _PageBase(Generic[T]):
    """One page of a list: its items and where the next page starts. Iterable over its items."""

    #: The items of this page, in the list's order (newest first).
    data: List[T]
    #: Whether another page follows.
    has_more: bool
    #: Pass it as ``cursor`` to get the next page; None on the last page.
    next_cursor: Optional[str]
    #: The page size asked for.
    limit: int

    def __init__(self, body: Mapping[str, Any]) -> None:
        if not isinstance(body, Mapping) or not isinstance(body.get("data"), list) or not isinstance(body.get("pagination"), Mapping):
            raise MessagingError("The API answered a list request without `data` and `pagination`.")
        pagination = body["pagination"]
        self.data = list(body["data"])
        self.has_more = bool(pagination.get("has_more"))
        cursor = pagination.get("next_cursor")
        self.next_cursor = cursor if isinstance(cursor, str) and cursor else None
        self.limit = int(pagination.get("limit") or len(self.data))

    @property
    def following_cursor(self) -> Optional[str]:
        """The cursor of the next page, or None after the last one."""
        return self.next_cursor if self.has_more else None

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index: int) -> T:
        return self.data[index]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(items={len(self.data)}, has_more={self.has_more}, next_cursor={self.next_cursor!r})"


class Page(_PageBase[T]):
    def __init__(self, body: Mapping[str, Any], fetch: FetchPage) -> None:
        super().__init__(body)
        self._fetch = fetch

    def next_page(self) -> Optional["Page[T]"]:
        """The next page, or None after the last one."""
        cursor = self.following_cursor
        return None if cursor is None else Page(self._fetch(cursor), self._fetch)


class AsyncPage(_PageBase[T]):
    def __init__(self, body: Mapping[str, Any], fetch: AsyncFetchPage) -> None:
        super().__init__(body)
        self._fetch = fetch

    async def next_page(self) -> Optional["AsyncPage[T]"]:
        """The next page, or None after the last one."""
        cursor = self.following_cursor
        return None if cursor is None else AsyncPage(await self._fetch(cursor), self._fetch)


def _check_max(max: Optional[int]) -> Optional[int]:
    if max is not None and (isinstance(max, bool) or not isinstance(max, int) or max < 0):
        raise MessagingError("max must be an integer >= 0.")
    return max


class Paginator(Generic[T]):
    """A list that fetches lazily: iterate it for every item of every page, or take one :meth:`page`.
    It starts at the ``cursor`` the list method was called with, else at the first page."""

    def __init__(self, fetch: FetchPage, cursor: Optional[str] = None) -> None:
        self._fetch = fetch
        self._cursor = cursor

    def page(self) -> Page[T]:
        """One page: the first, or the one at the ``cursor`` given to the list method."""
        return Page(self._fetch(self._cursor), self._fetch)

    def pages(self) -> Iterator[Page[T]]:
        """Every page in turn."""
        page: Optional[Page[T]] = self.page()
        while page is not None:
            yield page
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data

    def to_list(self, max: Optional[int] = None) -> List[T]:
        """Every item, fetching pages until there are ``max`` (default: all of them)."""
        limit = _check_max(max)
        items: List[T] = []
        if limit == 0:
            return items
        for item in self:
            items.append(item)
            if limit is not None and len(items) >= limit:
                break
        return items


class AsyncPaginator(Generic[T]):
    """A list that fetches lazily: ``async for`` it for every item of every page, or ``await`` one
    :meth:`page`. It starts at the ``cursor`` the list method was called with, else at the first page."""

    def __init__(self, fetch: AsyncFetchPage, cursor: Optional[str] = None) -> None:
        self._fetch = fetch
        self._cursor = cursor

    async def page(self) -> AsyncPage[T]:
        """One page: the first, or the one at the ``cursor`` given to the list method."""
        return AsyncPage(await self._fetch(self._cursor), self._fetch)

    async def pages(self) -> AsyncIterator[AsyncPage[T]]:
        """Every page in turn."""
        page: Optional[AsyncPage[T]] = await self.page()
        while page is not None:
            yield page
            page = await page.next_page()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.data:
                yield item

    async def to_list(self, max: Optional[int] = None) -> List[T]:
        """Every item, fetching pages until there are ``max`` (default: all of them)."""
        limit = _check_max(max)
        items: List[T] = []
        if limit == 0:
            return items
        iterator = self.__aiter__()
        try:
            async for item in iterator:
                items.append(item)
                if limit is not None and len(items) >= limit:
                    break
        finally:
            await iterator.aclose()  # type: ignore[attr-defined]
        return items


def page_query(filters: Dict[str, Any], cursor: Optional[str]) -> Dict[str, Any]:
    """The query of one page: the list's filters and the cursor (none for the first page)."""
    query = {k: v for k, v in filters.items() if k != "cursor"}
    if cursor is not None:
        query["cursor"] = cursor
    return query
