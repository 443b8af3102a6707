"""The drivers: sync and async loops that do the walk's HTTP through the caller's fetcher.

:class:`Walker` and :class:`AsyncWalker` are thin twins with mirrored method names (``page``,
``collect``, ``iter_pages``, ``iter_items``): each asks the core (:mod:`.walk_core`) for the next
request, sends it with ``fetch``, sleeps when the core says so (``Retry-After``) and yields the
pages it accepts. The streams expose ``.result`` once exhausted. Re-exported by :mod:`.walk`.

Standard library only (the fetcher is the caller's, so no httpx): copied verbatim into generated
packages.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Mapping
from typing import Any

from .contract import Contract
from .envelope import Continuation
from .walk_core import _Core
from .walk_plan import _Plan
from .walk_results import (
    CollectResult,
    FetchRefused,
    FetchTimedOut,
    Limits,
    Page,
    PageRequest,
    PageResponse,
    ResultNotReady,
    StreamResult,
    ViolationKind,
    WalkFailed,
)

SyncFetch = Callable[[PageRequest], PageResponse]
AsyncFetch = Callable[[PageRequest], Awaitable[PageResponse]]


class _WalkerBase:
    def __init__(
        self,
        contract: Contract | Mapping[str, Any],
        *,
        parse_page: Callable[..., Any] | None = None,
        parse_item: Callable[[Any], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        strict_items: bool = False,
    ) -> None:
        self.plan = _Plan.from_contract(contract)
        self.parse_page = parse_page
        self.parse_item = parse_item
        self.clock = clock
        self.strict_items = strict_items

    def _core(
        self,
        params: Mapping[str, Any] | None,
        limits: Limits | None,
        resume: Continuation | str | None,
        strict_items: bool | None = None,
    ) -> _Core:
        return _Core(
            self.plan,
            params or {},
            limits or Limits(),
            clock=self.clock,
            resume=resume,
            parse_page=self.parse_page,
            parse_item=self.parse_item,
            strict_items=self.strict_items if strict_items is None else strict_items,
        )


class Walker(_WalkerBase):
    """The synchronous walk. ``fetch(PageRequest) -> PageResponse`` sends one request."""

    def __init__(
        self,
        contract: Contract | Mapping[str, Any],
        fetch: SyncFetch,
        *,
        parse_page: Callable[..., Any] | None = None,
        parse_item: Callable[[Any], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        strict_items: bool = False,
    ) -> None:
        super().__init__(
            contract,
            parse_page=parse_page,
            parse_item=parse_item,
            clock=clock,
            strict_items=strict_items,
        )
        self.fetch = fetch
        self.sleep = sleep

    def _pages(self, core: _Core) -> Iterator[Page]:
        while (request := core.next_request()) is not None:
            try:
                response = self.fetch(request)
            except FetchRefused as exc:
                core.refused(str(exc))
                continue
            except FetchTimedOut as exc:
                if core.timed_out():
                    continue
                raise exc.original from None
            step = core.feed(response)
            if step.sleep is not None:
                self.sleep(step.sleep)
            elif step.page is not None:
                yield step.page

    def page(
        self,
        params: Mapping[str, Any] | None = None,
        *,
        resume: Any = None,
        strict_items: bool | None = None,
    ) -> Page:
        """Fetch exactly one page (rate-limit waits included); raises when none could be read."""
        core = self._core(params, Limits(max_pages=1), resume, strict_items)
        for page in self._pages(core):
            return page
        raise _no_page(core)

    def collect(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> CollectResult:
        """Follow continuations to the declared end or a limit; items plus completeness."""
        core = self._core(params, limits, resume, strict_items)
        items: list[Any] = []
        for page in self._pages(core):
            items.extend(page.items)
        result = core.result(items)
        assert isinstance(result, CollectResult)
        return result

    def iter_pages(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> PageStream:
        """Pages lazily; ``.result`` holds the completeness once the stream is exhausted."""
        return PageStream(self, self._core(params, limits, resume, strict_items))

    def iter_items(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> ItemStream:
        """Items lazily (memory bounded by one page); ``.result`` once exhausted."""
        return ItemStream(self.iter_pages(params, limits, resume=resume, strict_items=strict_items))


class AsyncWalker(_WalkerBase):
    """The asynchronous twin of :class:`Walker` (``await fetch(PageRequest)``)."""

    def __init__(
        self,
        contract: Contract | Mapping[str, Any],
        fetch: AsyncFetch,
        *,
        parse_page: Callable[..., Any] | None = None,
        parse_item: Callable[[Any], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        strict_items: bool = False,
    ) -> None:
        super().__init__(
            contract,
            parse_page=parse_page,
            parse_item=parse_item,
            clock=clock,
            strict_items=strict_items,
        )
        self.fetch = fetch
        self.sleep = sleep or _asyncio_sleep

    async def _pages(self, core: _Core) -> AsyncGenerator[Page, None]:
        while (request := core.next_request()) is not None:
            try:
                response = await self.fetch(request)
            except FetchRefused as exc:
                core.refused(str(exc))
                continue
            except FetchTimedOut as exc:
                if core.timed_out():
                    continue
                raise exc.original from None
            step = core.feed(response)
            if step.sleep is not None:
                await self.sleep(step.sleep)
            elif step.page is not None:
                yield step.page

    async def page(
        self,
        params: Mapping[str, Any] | None = None,
        *,
        resume: Any = None,
        strict_items: bool | None = None,
    ) -> Page:
        core = self._core(params, Limits(max_pages=1), resume, strict_items)
        pages = self._pages(core)
        try:
            async for page in pages:
                return page
        finally:
            await pages.aclose()  # finalise the generator now, not at garbage collection
        raise _no_page(core)

    async def collect(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> CollectResult:
        core = self._core(params, limits, resume, strict_items)
        items: list[Any] = []
        async for page in self._pages(core):
            items.extend(page.items)
        result = core.result(items)
        assert isinstance(result, CollectResult)
        return result

    def iter_pages(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> AsyncPageStream:
        return AsyncPageStream(self, self._core(params, limits, resume, strict_items))

    def iter_items(
        self,
        params: Mapping[str, Any] | None = None,
        limits: Limits | None = None,
        *,
        resume: Continuation | str | None = None,
        strict_items: bool | None = None,
    ) -> AsyncItemStream:
        return AsyncItemStream(
            self.iter_pages(params, limits, resume=resume, strict_items=strict_items)
        )


def _no_page(core: _Core) -> WalkFailed:
    return WalkFailed(core.result(None))


# --------------------------------------------------------------------------- streams


class _StreamBase:
    _result: StreamResult | None = None

    @property
    def result(self) -> StreamResult:
        """Completeness of the walk; only available once the stream is exhausted."""
        if self._result is None:
            raise ResultNotReady("the stream has not been consumed to its end")
        return self._result


class PageStream(_StreamBase):
    """Iterator of :class:`Page`; ``.result`` after exhaustion."""

    def __init__(self, walker: Walker, core: _Core) -> None:
        self._core = core
        self._it = walker._pages(core)

    @property
    def violation(self) -> ViolationKind | None:
        """Which rule a CONTRACT_VIOLATION that ended the walk broke (``VIOLATION_KINDS``),
        as data; None when the walk did not end on one."""
        return self._core.violation

    def __iter__(self) -> PageStream:
        return self

    def cut(self, keep: int, code: str, **details: Any) -> StreamResult:
        """End the walk after the first ``keep`` items of the page yielded last, with the client
        reason ``code`` (``details``) and a continuation that resumes at the next item; the
        result is ready at once (the MCP host bounds one tool answer with it)."""
        self._core.cut(keep, code, **details)
        self._result = self._core.result(None)
        return self._result

    def __next__(self) -> Page:
        try:
            return next(self._it)
        except StopIteration:
            self._result = self._core.result(None)
            raise


class ItemStream(_StreamBase):
    """Iterator of items; ``.result`` after exhaustion."""

    def __init__(self, pages: PageStream) -> None:
        self._pages = pages
        self._buffer: Iterator[Any] = iter(())

    def __iter__(self) -> ItemStream:
        return self

    def __next__(self) -> Any:
        while True:
            for item in self._buffer:
                return item
            try:
                self._buffer = iter(next(self._pages).items)
            except StopIteration:
                self._result = self._pages.result
                raise


class AsyncPageStream(_StreamBase):
    """Async iterator of :class:`Page`; ``.result`` after exhaustion."""

    def __init__(self, walker: AsyncWalker, core: _Core) -> None:
        self._core = core
        self._it = walker._pages(core)

    @property
    def violation(self) -> ViolationKind | None:
        """Which rule a CONTRACT_VIOLATION that ended the walk broke (``VIOLATION_KINDS``),
        as data; None when the walk did not end on one."""
        return self._core.violation

    def __aiter__(self) -> AsyncPageStream:
        return self

    def cut(self, keep: int, code: str, **details: Any) -> StreamResult:
        """See :meth:`PageStream.cut`."""
        self._core.cut(keep, code, **details)
        self._result = self._core.result(None)
        return self._result

    async def __anext__(self) -> Page:
        try:
            return await self._it.__anext__()
        except StopAsyncIteration:
            self._result = self._core.result(None)
            raise


class AsyncItemStream(_StreamBase):
    """Async iterator of items; ``.result`` after exhaustion."""

    def __init__(self, pages: AsyncPageStream) -> None:
        self._pages = pages
        self._buffer: Iterator[Any] = iter(())

    def __aiter__(self) -> AsyncItemStream:
        return self

    async def __anext__(self) -> Any:
        while True:
            for item in self._buffer:
                return item
            try:
                self._buffer = iter((await self._pages.__anext__()).items)
            except StopAsyncIteration:
                self._result = self._pages.result
                raise


async def _asyncio_sleep(seconds: float) -> None:
    """``asyncio.sleep``, with asyncio imported on first use: a synchronous caller never needs
    it, and it is a tenth of a generated package's import."""
    import asyncio

    await asyncio.sleep(seconds)
