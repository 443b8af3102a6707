"""The one walk that follows continuations and never loses completeness (sync and async twins).

Why one sans-IO core: the rules of DESIGN.md §5 (a short or empty page is never the end, client
limits add their own reason, a repeated cursor is never looped on, an expired cursor is never
silently restarted, snapshot drift is reported, undeclared codes are contract violations) are
subtle enough that they must exist exactly once. :class:`_Core` holds them and never does I/O: a
driver asks it for the next :class:`PageRequest`, sends it with the caller's fetcher, and feeds the
:class:`PageResponse` back. :class:`Walker` and :class:`AsyncWalker` are two thin drivers with
mirrored method names (``page``, ``collect``, ``iter_pages``, ``iter_items``).

Inputs: the operation's canonical contract (the dict of docs/internals.md, as stored in
``_contracts.json``), a fetcher that sends one HTTP request and returns status, headers and the
parsed body, the query parameters and :class:`Limits`. Conditions and locations are evaluated with
:mod:`.expressions` (the one expression language; never eval).

Every public path that yields items also yields completeness: ``collect`` returns a
:class:`CollectResult`; the streams expose ``.result`` (a :class:`StreamResult`) once exhausted and
raise :class:`ResultNotReady` when read earlier.

This module is the public face of the walk; the code lives in single-purpose modules, lowest
first (each imports only those above it):

- :mod:`.walk_results`: results, values and errors (``Page``, ``CollectResult``, ``WalkFailed`` ...)
- :mod:`.walk_plan`: the contract's parts the walk reads, parsed once (``_Plan``)
- :mod:`.walk_continuations`: client continuation tokens (``encode_continuation`` ...)
- :mod:`.walk_pages`: the page readers (native envelope, adapter per pagination style, items)
- :mod:`.walk_core`: the sans-IO state machine (next request, fold a response into the result)
- :mod:`.walk_drivers`: the sync and async loops and streams that fetch through the caller

Standard library and pydantic only (no httpx: the fetcher is the caller's): copied verbatim into
generated packages.
"""

from __future__ import annotations

from .codes import CLIENT_CODES, CLIENT_WARNING_CODES
from .contract import ContractError
from .envelope import Continuation, Reason, Warning
from .walk_continuations import ContinuationMismatch, decode_continuation, encode_continuation
from .walk_drivers import (
    AsyncItemStream,
    AsyncPageStream,
    AsyncWalker,
    ItemStream,
    PageStream,
    Walker,
)
from .walk_results import (
    MAX_ITEM_WARNINGS,
    VIOLATION_KINDS,
    ApiError,
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
    next_link_target,
)

__all__ = [
    "CLIENT_CODES",
    "CLIENT_WARNING_CODES",
    "MAX_ITEM_WARNINGS",
    "VIOLATION_KINDS",
    "ApiError",
    "AsyncItemStream",
    "AsyncPageStream",
    "AsyncWalker",
    "CollectResult",
    "Continuation",
    "ContinuationMismatch",
    "ContractError",
    "FetchRefused",
    "FetchTimedOut",
    "ItemStream",
    "Limits",
    "Page",
    "PageRequest",
    "PageResponse",
    "PageStream",
    "Reason",
    "ResultNotReady",
    "StreamResult",
    "ViolationKind",
    "WalkFailed",
    "Walker",
    "Warning",
    "decode_continuation",
    "encode_continuation",
    "next_link_target",
]
