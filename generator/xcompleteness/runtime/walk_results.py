"""What a walk returns and raises: values, errors and the codes it reports itself.

The result types (:class:`Page`, :class:`StreamResult`, :class:`CollectResult`), the request and
response a fetcher exchanges with the walk (:class:`PageRequest`, ``PageResponse``), the client's
:class:`Limits`, the exceptions of the walk's public surface and the reason/warning builders the
core and the page readers share. Re-exported by :mod:`.walk`.

Standard library and pydantic only (no httpx): copied verbatim into generated packages.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any, Literal, get_args

from .envelope import Continuation, Reason, Warning, make_reason, make_warning
from .expressions import ResponseView
from .records import record

MORE = "MORE_PAGES_AVAILABLE"
CLIENT_PAGE_LIMIT = "CLIENT_PAGE_LIMIT"
CLIENT_ITEM_LIMIT = "CLIENT_ITEM_LIMIT"
CLIENT_DEADLINE_EXCEEDED = "CLIENT_DEADLINE_EXCEEDED"
CONTRACT_VIOLATION = "CONTRACT_VIOLATION"
CURSOR_EXPIRED = "CURSOR_EXPIRED"
SNAPSHOT_CHANGED = "SNAPSHOT_CHANGED"
RATE_LIMITED = "RATE_LIMITED"
RESULT_LIMIT_REACHED = "RESULT_LIMIT_REACHED"
HTTP_ERROR = "HTTP_ERROR"
DUPLICATE_ITEMS = "DUPLICATE_ITEMS"
DUPLICATES_UNCHECKED = "DUPLICATES_UNCHECKED"
CLIENT_ANSWER_LIMIT = "CLIENT_ANSWER_LIMIT"
END_INFERRED = "END_INFERRED"
ITEMS_SEEN_TWICE = "ITEMS_SEEN_TWICE"
EVIDENCE_WITHHELD = "EVIDENCE_WITHHELD"
DUPLICATE_CHECK_STOPPED = "DUPLICATE_CHECK_STOPPED"
DOUBTS = (END_INFERRED, ITEMS_SEEN_TWICE, DUPLICATE_CHECK_STOPPED)
"""Client warnings of a complete result whose end the walk inferred or doubts: such a result
mints no evidence unless the listing's ``evidence.accept`` names every one it carries."""
MAX_SEEN_IDS_ENV = "XC_MAX_SEEN_IDS"
DEFAULT_MAX_SEEN_IDS = 100_000
"""How many distinct ids one walk remembers to detect duplicates (``XC_MAX_SEEN_IDS`` overrides
it); past it the walk warns DUPLICATE_CHECK_STOPPED (a listing declared frozen: the reason
DUPLICATES_UNCHECKED, not complete) instead of growing without bound."""
MAX_DUPLICATE_IDS = 20
"""At most this many duplicate ids are named in DUPLICATE_ITEMS / ITEMS_SEEN_TWICE details."""
URL_STYLES = frozenset({"link-header", "next-url"})
"""Styles whose next page is a URL the fetcher follows (only on the base URL's origin)."""
NEXT_STYLES = frozenset({"cursor", *URL_STYLES})
"""Styles that read a next cursor or URL from ``pagination.response.next``."""
MAX_ITEM_WARNINGS = 20
"""At most this many ITEM_SCHEMA_MISMATCH warnings per walk, one per item; the last one then
counts the further mismatched items in its ``more`` detail (every item is kept regardless)."""

ViolationKind = Literal[
    "broken_page", "items_not_a_list", "refused", "repeated_cursor", "total_mismatch"
]
"""Which rule a CONTRACT_VIOLATION broke, as data (its ``what`` is for people and may be
reworded): ``repeated_cursor`` (a cursor or next link the walk already used: following it would
loop), ``items_not_a_list`` (the items location does not hold a list), ``refused`` (the fetcher
would not send the next request, e.g. a next link to another origin), ``total_mismatch`` (a
cursor, link-header or next-url walk ended by the API's own end signal with a different number
of items than the declared total counts, and no declared cap explains it; the last page's items
are kept), ``broken_page`` (any other rule a page
broke). ``PageStream.violation`` holds it once the walk ended on one."""
VIOLATION_KINDS: tuple[ViolationKind, ...] = get_args(ViolationKind)


# --------------------------------------------------------------------------- values


class FetchTimedOut(Exception):
    """Raised by a fetcher whose request timed out; ``original`` is the transport's exception.

    When the walk's own deadline has passed by then, the walk ends with CLIENT_DEADLINE_EXCEEDED
    (the items read so far kept, a continuation to resume from); otherwise the timeout was not
    the deadline's doing and ``original`` is raised.
    """

    def __init__(self, original: BaseException) -> None:
        super().__init__(str(original))
        self.original = original


class FetchRefused(Exception):
    """Raised by a fetcher that will not send a request (e.g. a next link to another origin).

    The walk ends with CONTRACT_VIOLATION (``what`` = the message) instead of following it.
    """


_DEFAULT_PORTS = {"http": 80, "https": 443}


def next_link_target(base_url: str, link: str) -> str:
    """The absolute URL of a next link the walk may follow, or :class:`FetchRefused`.

    The one origin rule for next links (both ``next-url`` and ``link-header``, the generated
    client, the MCP host and ``verify``): the link, resolved against the base URL, must

    - use ``http`` or ``https`` with the base URL's scheme, host and port (a default port
      written out is the same port);
    - carry no userinfo (``http://evil@host/`` would make the HTTP library replace the caller's
      ``Authorization`` header with its own Basic credentials);
    - stay under the base URL's path (``https://api.example.com/v2/`` admits ``/v2/...`` only),
      with no ``.``/``..`` segment (written or percent-encoded) to climb out of it;
    - hold no control character, space or backslash.
    """
    from urllib.parse import unquote, urljoin, urlsplit

    if (
        not isinstance(link, str)
        or any(c in link for c in "\\ ")
        or any(ord(c) < 0x20 or ord(c) == 0x7F for c in link)
    ):
        raise FetchRefused("next link is not a plain URL")
    base = urlsplit(base_url if base_url.endswith("/") else base_url + "/")
    target_text = urljoin(base.geturl(), link)
    try:
        target = urlsplit(target_text)
        target_port = target.port or _DEFAULT_PORTS.get(target.scheme.lower())
        base_port = base.port or _DEFAULT_PORTS.get(base.scheme.lower())
    except ValueError:
        raise FetchRefused("next link has an invalid port") from None
    if target.scheme.lower() not in _DEFAULT_PORTS:
        raise FetchRefused(f"next link is not http(s): {target.scheme or '(none)'}:")
    if target.username is not None or target.password is not None or "@" in target.netloc:
        raise FetchRefused("next link carries userinfo (user@ or user:password@)")
    if (target.scheme.lower(), (target.hostname or "").lower(), target_port) != (
        base.scheme.lower(),
        (base.hostname or "").lower(),
        base_port,
    ):
        raise FetchRefused(f"next link leaves the API's origin: {target.hostname}")
    segments = unquote(target.path).split("/")
    if any(seg in (".", "..") for seg in segments):
        raise FetchRefused("next link has a dot segment in its path")
    prefix = base.path if base.path.endswith("/") else base.path + "/"
    if not (target.path + "/").startswith(prefix):
        raise FetchRefused("next link leaves the API's base path")
    return target_text


class ResultNotReady(RuntimeError):
    """A stream's ``.result`` was read before the stream was exhausted."""


class ApiError(Exception):
    """An HTTP error status the operation's declaration does not map to a reason code, on the
    walk's first request (after one or more pages the walk ends with HTTP_ERROR instead, its
    items kept)."""

    def __init__(self, status: int, body: Any, *, pages_read: int = 0) -> None:
        super().__init__(f"HTTP {status} not mapped by the declaration (after {pages_read} pages)")
        self.status = status
        self.body = body
        self.pages_read = pages_read


_RESERVED = frozenset({"code", "origin", "message"})


def _reason(
    code: str,
    origin: str = "server",
    details: Mapping[str, Any] | None = None,
    message: str | None = None,
) -> Reason:
    """A reason as its typed model (``reason.limit`` ...) when the details fit, else open."""
    if not details and message is None:
        return _bare_reason(code, origin)
    raw = {k: v for k, v in (details or {}).items() if k not in _RESERVED}
    return make_reason({"code": code, "message": message, **raw}, origin=origin)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=256)
def _bare_reason(code: str, origin: str) -> Reason:
    """Reasons without details (MORE_PAGES_AVAILABLE on every page) are frozen: build them once."""
    return make_reason({"code": code}, origin=origin)  # type: ignore[arg-type]


def _warning(code: str, details: Mapping[str, Any], message: str | None) -> Warning:
    raw = {k: v for k, v in details.items() if k not in _RESERVED}
    return make_warning({"code": code, "message": message, **raw})


def _key(entry: Reason | Warning) -> tuple[str, str]:
    """Identity used to deduplicate the same reason reported by several pages: code + details."""
    return entry.code, json.dumps(entry.details, sort_keys=True, default=str)


@record(frozen=True)
class Limits:
    """The client's own bounds on one walk; reaching one ends it with an ``origin: client`` reason.

    ``deadline`` is in seconds from the start of the walk. ``max_retry_wait`` bounds one
    ``Retry-After`` sleep when no deadline is set (with a deadline, a wait is honoured only when it
    ends before the deadline).
    """

    max_pages: int | None = None
    max_items: int | None = None
    deadline: float | None = None
    max_retry_wait: float = 30.0


@record(frozen=True)
class PageRequest:
    """One HTTP request the walk wants sent: query ``params``, or a full next-page ``url``."""

    params: dict[str, Any]
    url: str | None = None
    timeout: float | None = None


PageResponse = ResponseView
"""What a fetcher returns: status, headers and the parsed JSON body (MISSING when not JSON);
``ResponseView.from_httpx(response)`` builds one from an ``httpx.Response``."""


@record(frozen=True)
class Page:
    """One page as the walk saw it; in adapter mode ``envelope`` is computed client-side."""

    number: int
    items: list[Any]
    complete: bool
    reasons: tuple[Reason, ...]
    warnings: tuple[Warning, ...]
    next_cursor: str | None
    snapshot: Any
    evidence: Any
    envelope: Any
    response: PageResponse


@record(frozen=True)
class StreamResult:
    """Completeness of a finished walk, without the items (what a stream exposes at the end).

    ``complete`` is true only when the declared terminal signal was reached and nothing was
    reported; ``reasons`` keeps every non-MORE_PAGES_AVAILABLE reason seen on any page plus the
    client's own; ``continuation`` is None exactly when ``complete``.
    """

    complete: bool
    reasons: tuple[Reason, ...]
    continuation: Continuation | None
    snapshot: Any
    pages: int
    item_count: int
    warnings: tuple[Warning, ...]
    evidence: Any

    def reason(self, code: str) -> Reason | None:
        """The first reason with ``code``, or None."""
        return next((r for r in self.reasons if r.code == code), None)

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]


@record(frozen=True)
class CollectResult(StreamResult):
    """A collected listing: every item read plus its completeness."""

    items: list[Any] = field(default_factory=list)


class _Violation(Exception):
    def __init__(self, what: str, kind: ViolationKind = "broken_page") -> None:
        super().__init__(what)
        self.what = what
        self.kind = kind


class WalkFailed(RuntimeError):
    """``page()`` could not read a page; ``result`` says why (reasons, continuation).

    The message names every reason and what it says: a contract violation shows its ``what``
    (which rule the response broke), e.g. ``no page could be read: CONTRACT_VIOLATION: the
    envelope has no boolean 'complete'``; other reasons show their message or details.
    """

    def __init__(self, result: StreamResult) -> None:
        described = "; ".join(_describe(r) for r in result.reasons) or "no reason given"
        super().__init__(f"no page could be read: {described}"[:2000])
        self.result = result

    @property
    def codes(self) -> list[str]:
        return self.result.codes

    @property
    def what(self) -> str | None:
        """The ``what`` of the contract violation that stopped the walk, if one did."""
        reason = self.result.reason(CONTRACT_VIOLATION)
        return None if reason is None else reason.details.get("what")


def _describe(reason: Reason) -> str:
    """One reason for a human: ``CODE: what`` for a violation, else ``CODE (details): message``."""
    details = reason.details
    if reason.code == CONTRACT_VIOLATION and details.get("what"):
        return f"{reason.code}: {details['what']}"
    text = reason.code
    if details:
        text += " (" + ", ".join(f"{k}={v}" for k, v in sorted(details.items())) + ")"
    if reason.message:
        text += f": {reason.message}"
    return text


def max_seen_ids() -> int:
    """The bound on one walk's set of seen ids: ``XC_MAX_SEEN_IDS`` or
    :data:`DEFAULT_MAX_SEEN_IDS` (a value that is not a positive integer is a ValueError)."""
    raw = os.environ.get(MAX_SEEN_IDS_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_MAX_SEEN_IDS
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{MAX_SEEN_IDS_ENV} must be a positive integer, got {raw!r}")
    return value


_DOUBT_TEXT = {
    END_INFERRED: "the end was inferred from {end}, not confirmed by the API",
    ITEMS_SEEN_TWICE: "the listing moved under the walk (an id was read twice), so items may "
    "have been skipped",
    DUPLICATE_CHECK_STOPPED: "duplicate detection stopped before the end",
}


def evidence_doubts(
    warnings: Iterable[tuple[str, Mapping[str, Any]]], accept: Iterable[str]
) -> Warning | None:
    """The EVIDENCE_WITHHELD warning of a complete result, or None when it may carry evidence.

    ``warnings`` are the result's (code, details); a doubt (:data:`DOUBTS`) the listing's
    ``evidence.accept`` does not name withholds the evidence. The one rule for the client's
    ``.evidence`` (the API's token) and the MCP server's own tokens.
    """
    found = dict(warnings)
    accepted = set(accept)
    because = [c for c in DOUBTS if c in found and c not in accepted]
    if not because:
        return None
    end = found.get(END_INFERRED) or {}
    page = {"empty-page": "an empty page", "short-page": "a short page"}.get(
        str(end.get("end")), "an empty or short page"
    )
    texts = [_DOUBT_TEXT[c].format(end=page) for c in because]
    message = (
        f"evidence withheld: {'; '.join(texts)}. A destructive action needs a server-confirmed "
        "end (a declaration may opt in with evidence.accept)"
    )
    return _warning(EVIDENCE_WITHHELD, {"because": because}, message)
