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

Standard library and pydantic only (no httpx: the fetcher is the caller's): copied verbatim into
generated packages.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import email.utils
import functools
import hashlib
import json
import math
import time
from collections.abc import (
    AsyncGenerator,
    Awaitable,
    Callable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any

from .codes import CLIENT_CODES, CLIENT_WARNING_CODES, STANDARD_CONTINUATIONS
from .contract import ContractError
from .envelope import (
    CONTINUATION_PRIORITY,
    ITEM_MISMATCHES,
    Continuation,
    Reason,
    Warning,
    item_mismatch_warning,
    make_reason,
    make_warning,
)
from .expressions import (
    MISSING,
    ResponseView,
    parse_condition,
    parse_expression,
    parse_pointer,
    resolve_pointer,
)

__all__ = [
    "CLIENT_CODES",
    "CLIENT_WARNING_CODES",
    "MAX_ITEM_WARNINGS",
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
    "WalkFailed",
    "Walker",
    "Warning",
    "decode_continuation",
    "encode_continuation",
]

MORE = "MORE_PAGES_AVAILABLE"
CLIENT_PAGE_LIMIT = "CLIENT_PAGE_LIMIT"
CLIENT_ITEM_LIMIT = "CLIENT_ITEM_LIMIT"
CLIENT_DEADLINE_EXCEEDED = "CLIENT_DEADLINE_EXCEEDED"
CONTRACT_VIOLATION = "CONTRACT_VIOLATION"
CURSOR_EXPIRED = "CURSOR_EXPIRED"
SNAPSHOT_CHANGED = "SNAPSHOT_CHANGED"
RATE_LIMITED = "RATE_LIMITED"
URL_STYLES = frozenset({"link-header", "next-url"})
"""Styles whose next page is a URL the fetcher follows (only on the base URL's origin)."""
NEXT_STYLES = frozenset({"cursor", *URL_STYLES})
"""Styles that read a next cursor or URL from ``pagination.response.next``."""
MAX_ITEM_WARNINGS = 20
"""At most this many ITEM_SCHEMA_MISMATCH warnings per walk, one per item; the last one then
counts the further mismatched items in its ``more`` detail (every item is kept regardless)."""

_MAX_RETRIES_PER_PAGE = 3


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


class ResultNotReady(RuntimeError):
    """A stream's ``.result`` was read before the stream was exhausted."""


class ApiError(Exception):
    """An HTTP error status the operation's declaration does not map to a reason code."""

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
    raw = {k: v for k, v in details.items() if k not in _RESERVED}
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class PageRequest:
    """One HTTP request the walk wants sent: query ``params``, or a full next-page ``url``."""

    params: dict[str, Any]
    url: str | None = None
    timeout: float | None = None


PageResponse = ResponseView
"""What a fetcher returns: status, headers and the parsed JSON body (MISSING when not JSON);
``ResponseView.from_httpx(response)`` builds one from an ``httpx.Response``."""


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class CollectResult(StreamResult):
    """A collected listing: every item read plus its completeness."""

    items: list[Any] = field(default_factory=list)


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class _ReasonDecl:
    code: str
    when: Any  # a parsed Condition or None
    details: Mapping[str, Any]
    continuation: str
    origin: str


def _get(obj: Any, key: str, default: Any = None) -> Any:
    """Read ``key`` from a canonical dict or from a runtime ``Contract`` dataclass."""
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _expr(text: Any, what: str) -> Any:
    if text is None:
        return None
    try:
        return parse_expression(text)
    except Exception as exc:  # ExpressionError; the contract was validated by `check`
        raise ContractError(f"{what}: {exc}") from exc


def _pointer(text: Any) -> tuple[str, ...] | None:
    if text is None:
        return None
    try:
        return parse_pointer(str(text))
    except Exception as exc:
        raise ContractError(f"last-item pointer: {exc}") from exc


@dataclass(frozen=True)
class _Plan:
    """The parts of one canonical contract the walk reads, parsed once."""

    operation_id: str
    mode: str
    style: str
    items: Any
    req_cursor: str | None
    req_size: str | None
    req_offset: str | None
    req_page: str | None
    next: Any
    next_last_item: Any
    total: Any
    pages: Any
    reasons: tuple[_ReasonDecl, ...]
    declared: frozenset[str]
    warning_codes: frozenset[str]
    snapshot_kind: str | None
    invalidated_by: frozenset[str] = frozenset()
    deadline_param: str | None = None

    @classmethod
    def from_contract(cls, contract: Any) -> _Plan:
        pag = _get(contract, "pagination") or {}
        style = _get(pag, "style") or "none"
        req = _get(pag, "request") or {}
        resp = _get(pag, "response") or {}
        mode = _get(contract, "mode") or "native"
        reasons = []
        for raw in _get(contract, "reasons") or ():
            code = _get(raw, "code")
            when = _get(raw, "when")
            if when is not None and not hasattr(when, "holds"):
                try:
                    when = parse_condition(when)
                except Exception as exc:
                    raise ContractError(f"reason {code}: {exc}") from exc
            reasons.append(
                _ReasonDecl(
                    code=code,
                    when=when,
                    details=dict(_get(raw, "details") or {}),
                    continuation=_get(raw, "continuation")
                    or STANDARD_CONTINUATIONS.get(code, "none"),
                    origin=_get(raw, "origin") or "server",
                )
            )
        next_text = _get(resp, "next")
        last_item = _get(resp, "next_last_item")
        if mode == "native" and style == "cursor" and next_text is None and last_item is None:
            next_text = "$response.body#/next_cursor"
        scope = _get(contract, "scope") or {}
        cursor_rules = _get(pag, "cursor") or {}
        deadline = _get(contract, "deadline") or {}
        plan = cls(
            operation_id=str(_get(contract, "operation_id") or "?"),
            mode=mode,
            style=style,
            items=_expr(_get(contract, "items") or "$response.body#/items", "items"),
            req_cursor=_get(req, "cursor"),
            req_size=_get(req, "size"),
            req_offset=_get(req, "offset"),
            req_page=_get(req, "page"),
            next=_expr(next_text, "pagination.response.next"),
            next_last_item=_pointer(last_item),
            total=_expr(_get(resp, "total"), "pagination.response.total"),
            pages=_expr(_get(resp, "pages"), "pagination.response.pages"),
            reasons=tuple(reasons),
            declared=frozenset(r.code for r in reasons),
            warning_codes=frozenset(_get(contract, "warnings") or ()),
            snapshot_kind=_get(scope, "snapshot"),
            invalidated_by=frozenset(_get(cursor_rules, "invalidated_by") or ()),
            deadline_param=_get(deadline, "param"),
        )
        plan._check()
        return plan

    def _check(self) -> None:
        """Refuse a contract that gives the walk no way to know where the listing ends."""
        if self.mode != "adapter" or self.style == "none":
            return
        more = self.decl(MORE)
        if more is not None and more.when is not None:
            return
        if self.style in NEXT_STYLES and self.next is None and not self.last_item:
            raise ContractError(f"{self.operation_id}: no next cursor or link location declared")
        if self.style == "offset" and self.total is None:
            raise ContractError(f"{self.operation_id}: offset style without a declared total")
        if self.style == "page" and self.total is None and self.pages is None:
            raise ContractError(f"{self.operation_id}: page style without declared pages or total")

    @property
    def last_item(self) -> bool:
        return self.next_last_item is not None

    @property
    def follows_url(self) -> bool:
        """The next page is a URL to follow (``Link: rel=next`` or a body ``nextLink``)."""
        return self.style in URL_STYLES and self.req_cursor is None and not self.last_item

    @property
    def paging_params(self) -> frozenset[str]:
        """Parameters the walk itself sets or that change between pages of one listing."""
        names = (self.req_cursor, self.req_size, self.req_offset, self.req_page)
        return frozenset(n for n in (*names, self.deadline_param) if n)

    def invalidating(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters whose change the declaration says invalidates a cursor.

        ``filter`` and ``ordering`` cover every parameter but the paging ones (the walk cannot
        tell a sort parameter from a filter by its name); ``page-size`` covers the size
        parameter. ``authorization`` is the server's to check (the client never stores
        credentials in a continuation).
        """
        out: dict[str, Any] = {}
        if self.invalidated_by & {"filter", "ordering"}:
            out.update({k: v for k, v in params.items() if k not in self.paging_params})
        if "page-size" in self.invalidated_by and self.req_size and self.req_size in params:
            out[self.req_size] = params[self.req_size]
        return out

    def decl(self, code: str) -> _ReasonDecl | None:
        return next((r for r in self.reasons if r.code == code), None)

    def continuation_of(self, code: str) -> str:
        decl = self.decl(code)
        return decl.continuation if decl else STANDARD_CONTINUATIONS.get(code, "none")


def _value(expr: Any, view: ResponseView) -> Any:
    """Evaluate a location; missing and null both read as None."""
    if expr is None:
        return None
    value = expr.evaluate(response=view)
    return None if value is MISSING else value


def _retry_after(headers: Mapping[str, str], now: float) -> float | None:
    raw = headers.get("retry-after") or headers.get("Retry-After")
    if raw is None:
        return None
    raw = raw.strip()
    if raw.isdigit():
        return float(raw)
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _position_number(value: Any, name: str) -> int:
    """An offset or page number to start from (a resumed continuation carries it as text)."""
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"{name} must be a whole number to resume from, got {value!r}") from None
    if number < 0:
        raise ValueError(f"{name} must not be negative, got {number}")
    return number


# --------------------------------------------------------------------------- continuations

_TOKEN_PREFIX = "xc1."
_MAX_TOKEN_CHARS = 16_384


class ContinuationMismatch(ValueError):
    """A continuation that cannot resume this walk: damaged, issued for another operation, or
    for other values of a parameter the declaration's ``cursor.invalidated-by`` names."""


def _params_digest(params: Mapping[str, Any]) -> str:
    """A short canonical digest of query parameters (values compared as their wire text)."""
    canon = sorted(
        [str(k), [str(x).lower() if isinstance(x, bool) else str(x) for x in v]]
        if isinstance(v, (list, tuple))
        else [str(k), str(v).lower() if isinstance(v, bool) else str(v)]
        for k, v in params.items()
        if v is not None
    )
    raw = json.dumps(canon, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:24]


def _seal(body: bytes) -> str:
    return hashlib.sha256(b"xcompleteness-continuation\x00" + body).hexdigest()[:16]


def encode_continuation(state: Mapping[str, Any]) -> str:
    """The text of a client continuation: ``xc1.<base64url JSON>.<check>``.

    It carries what the walk needs to resume and to know where the listing ends: the operation,
    the position (cursor, next URL, offset or page number), how many items were read before it,
    the declared total seen so far and a digest of the invalidating parameters. The check digest
    catches a damaged or hand-edited continuation; it is not a signature (the client has no
    secret), so the walk also bounds itself on whatever it is handed (see docs/client.md).
    """
    body = json.dumps(dict(state), separators=(",", ":"), sort_keys=True).encode()
    text = base64.urlsafe_b64encode(body).rstrip(b"=").decode("ascii")
    return f"{_TOKEN_PREFIX}{text}.{_seal(body)}"


def decode_continuation(text: str) -> dict[str, Any] | None:
    """The state inside a client continuation, None for a plain cursor/URL/number (raises
    :class:`ContinuationMismatch` for a damaged one)."""
    if not text.startswith(_TOKEN_PREFIX):
        return None
    parts = text[len(_TOKEN_PREFIX) :].split(".")
    try:
        if len(text) > _MAX_TOKEN_CHARS or len(parts) != 2:
            raise ValueError("shape")
        body = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4))
        if _seal(body) != parts[1]:
            raise ValueError("check digest")
        state = json.loads(body)
    except (ValueError, binascii.Error):
        raise ContinuationMismatch(
            "the continuation is damaged (its check digest does not match); restart the listing"
        ) from None
    before = state.get("n") if isinstance(state, dict) else None
    if (
        not isinstance(state, dict)
        or not isinstance(state.get("c"), str)
        or isinstance(before, bool)
        or not isinstance(before, int)
        or before < 0
    ):
        raise ContinuationMismatch("the continuation is malformed; restart the listing")
    return state


def _model_what(prefix: str, exc: Exception) -> str:
    """``prefix`` plus the first errors of a validation failure, on one line (for ``what``)."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            parts = [
                f"{'/'.join(str(p) for p in e.get('loc') or ()) or '/'}: {e.get('msg')}"
                for e in errors()[:3]
            ]
        except Exception:  # noqa: BLE001 - a foreign exception type; fall back to its text
            parts = [str(exc)]
    else:
        parts = [str(exc)]
    return f"{prefix}: {'; '.join(parts)}"[:500]


def _error_code(body: Any) -> str | None:
    if isinstance(body, Mapping):
        err = body.get("error")
        if isinstance(err, Mapping) and isinstance(err.get("code"), str):
            return err["code"]
    return None


# --------------------------------------------------------------------------- the core


class _Violation(Exception):
    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass
class _Step:
    """What the core tells a driver after one response."""

    page: Page | None = None
    sleep: float | None = None


class _Core:
    """Sans-IO state of one walk. Drivers call :meth:`next_request`, fetch, then :meth:`feed`."""

    def __init__(
        self,
        plan: _Plan,
        params: Mapping[str, Any],
        limits: Limits,
        *,
        clock: Callable[[], float],
        resume: Continuation | str | None,
        parse_page: Callable[..., Any] | None,
        parse_item: Callable[[Any], Any] | None,
        strict_items: bool = False,
    ) -> None:
        self.plan = plan
        self.limits = limits
        self.clock = clock
        self.parse_page = parse_page
        self.parse_item = parse_item
        self.strict_items = strict_items
        self.mismatched = 0  # items kept as received because they did not match their model
        self.last_mismatch: tuple[tuple[str, str], int, Exception, int] | None = None
        self.started = clock()
        self.params = {k: v for k, v in params.items() if v is not None}
        self.pages = 0
        self.item_count = 0
        self.reasons: dict[tuple[str, str], Reason] = {}
        self.warnings: dict[tuple[str, str], Warning] = {}
        self.snapshot: Any = None
        self.snapshot_seen = False
        self.total: Any = None
        self.evidence: Any = None
        self.stop_continuation: Continuation | None = None
        self.finished = False
        self.retries = 0
        self.seen: set[str] = set()
        self.cursor: str | None = None  # the position the next request starts from
        self.url: str | None = None
        self.offset = 0
        self.page_no = 1
        # Items of this listing read before the walk's first position (by earlier walks this one
        # resumes); None when unknown (a bare page number), then estimated from the first page.
        self.before: int | None = 0
        self.guard = _params_digest(plan.invalidating(self.params))
        self._start(resume)

    # -- position ---------------------------------------------------------------------

    def _start(self, resume: Continuation | str | None) -> None:
        plan = self.plan
        if isinstance(resume, Continuation):
            resume = resume.cursor
        state = decode_continuation(str(resume)) if resume is not None else None
        if state is not None:
            resume = self._resume_state(state)
        if plan.style == "offset" and plan.req_offset:
            start = resume if resume is not None else self.params.get(plan.req_offset, 0)
            self.offset = _position_number(start, plan.req_offset)
            self.params.pop(plan.req_offset, None)
        elif plan.style == "page" and plan.req_page:
            start = resume if resume is not None else self.params.get(plan.req_page, 1)
            self.page_no = _position_number(start, plan.req_page)
            self.params.pop(plan.req_page, None)
            if state is None and self.page_no > 1:
                self.before = None  # a bare page number: how many items precede it is unknown
        elif resume is not None:
            if plan.follows_url and (
                plan.style == "next-url" or str(resume).startswith(("http://", "https://"))
            ):
                self.url = str(resume)  # a next URL (Link header or body): same origin only
            elif plan.req_cursor:
                self.params[plan.req_cursor] = str(resume)
        if plan.req_cursor and plan.req_cursor in self.params:
            self.cursor = str(self.params[plan.req_cursor])
        elif self.url:
            self.cursor = self.url

    def _resume_state(self, state: Mapping[str, Any]) -> str:
        """Check a decoded continuation against this walk; returns the position to start at."""
        plan = self.plan
        if state.get("o") != plan.operation_id or state.get("s") != plan.style:
            raise ContinuationMismatch(
                f"the continuation belongs to another listing ({state.get('o')!r}), "
                f"not {plan.operation_id!r}"
            )
        if state.get("q", self.guard) != self.guard:
            changed = ", ".join(sorted(plan.invalidated_by & {"filter", "ordering", "page-size"}))
            raise ContinuationMismatch(
                f"a parameter that invalidates this listing's cursor changed ({changed}, "
                "per cursor.invalidated-by); restart the listing without the continuation"
            )
        self.before = int(state["n"])
        if state.get("t") is not None:
            self.total = state["t"]
        return str(state["c"])

    def continuation_text(self) -> str | None:
        """The continuation of the position the next request starts from (None at the start).

        Offset and page positions, and every position of an adapter walk whose declaration
        names invalidating parameters (``cursor.invalidated-by``), become the client token of
        :func:`encode_continuation` (the position plus the items read so far, the declared total
        and the invalidating parameters' digest), so a resumed walk knows where the listing
        ends and refuses a continuation of another query. A native cursor or a next link stays
        as the server sent it: the end test needs nothing else, and a native service binds the
        invalidating parameters into its own signed cursor (``ListingTokens``).
        """
        position = self._position()
        if position is None:
            return None
        numbered = self.plan.style in ("offset", "page")
        guarded = (self.plan.mode == "adapter" or numbered) and bool(
            self.plan.invalidated_by & {"filter", "ordering", "page-size"}
        )
        if not numbered and not guarded:
            return position
        state: dict[str, Any] = {
            "o": self.plan.operation_id,
            "s": self.plan.style,
            "c": position,
            "n": (self.before or 0) + self.item_count,
        }
        if self.total is not None:
            state["t"] = self.total
        if guarded:
            state["q"] = self.guard
        return encode_continuation(state)

    def _position(self) -> str | None:
        """The resumable position of the next request, as a string (None at the very start)."""
        if self.plan.style == "offset":
            return str(self.offset)
        if self.plan.style == "page":
            return str(self.page_no)
        return self.cursor

    def _request(self) -> PageRequest:
        params = dict(self.params)
        if self.plan.style == "offset" and self.plan.req_offset:
            params[self.plan.req_offset] = self.offset
        elif self.plan.style == "page" and self.plan.req_page:
            params[self.plan.req_page] = self.page_no
        return PageRequest(params=params, url=self.url, timeout=self._remaining())

    def _remaining(self) -> float | None:
        if self.limits.deadline is None:
            return None
        return self.limits.deadline - (self.clock() - self.started)

    # -- driver interface -------------------------------------------------------------

    def next_request(self) -> PageRequest | None:
        """The next request to send, or None when the walk is over (maybe by a client limit)."""
        if self.finished:
            return None
        if self.pages:
            lim = self.limits
            if lim.max_pages is not None and self.pages >= lim.max_pages:
                return self._client_stop(CLIENT_PAGE_LIMIT, max_pages=lim.max_pages)
            if lim.max_items is not None and self.item_count >= lim.max_items:
                return self._client_stop(CLIENT_ITEM_LIMIT, max_items=lim.max_items)
            remaining = self._remaining()
            if remaining is not None and remaining <= 0:
                return self._client_stop(CLIENT_DEADLINE_EXCEEDED, deadline_s=lim.deadline)
        return self._request()

    def feed(self, response: PageResponse) -> _Step:
        """Account for one response; returns the page (or a wait) and updates the walk state."""
        try:
            return self._feed(response)
        except _Violation as exc:
            self._violation(exc.what)
            return _Step()

    def refused(self, what: str) -> None:
        """The fetcher refused to send the request: a violation, never a silent end."""
        self._violation(what)

    def timed_out(self) -> bool:
        """A request timed out: True (and the walk ends on its deadline) if the deadline passed."""
        remaining = self._remaining()
        if remaining is None or remaining > 0:
            return False
        if self._position() is not None:
            self._client_stop(CLIENT_DEADLINE_EXCEEDED, deadline_s=self.limits.deadline)
            return True
        # Nothing to resume from yet (the first page timed out): retry with more time.
        self._add(_reason(CLIENT_DEADLINE_EXCEEDED, "client", {"deadline_s": self.limits.deadline}))
        self.stop_continuation = Continuation(kind="retry_with_deadline")
        self.finished = True
        return True

    # -- endings ----------------------------------------------------------------------

    def _add(self, reason: Reason) -> None:
        self.reasons.setdefault(_key(reason), reason)

    def _client_stop(self, code: str, **details: Any) -> None:
        self._add(_reason(code, "client", details))
        self.stop_continuation = Continuation(kind="next_cursor", cursor=self.continuation_text())
        self.finished = True
        return None

    def _violation(self, what: str) -> None:
        self._add(_reason(CONTRACT_VIOLATION, "client", {"what": what}))
        self.stop_continuation = Continuation(kind="none")
        self.finished = True

    def _restart(self, code: str, origin: str, message: str | None = None) -> None:
        self._add(_reason(code, origin, {}, message))
        self.stop_continuation = Continuation(kind="restart")
        self.finished = True

    # -- one response -----------------------------------------------------------------

    def _feed(self, resp: PageResponse) -> _Step:
        plan = self.plan
        view = resp
        adapter = plan.mode == "adapter"
        ok = 200 <= resp.status < 300
        if ok and not adapter:  # the common case: a native page, no error body to read
            if resp.body is MISSING:
                raise _Violation("the response body is not JSON")
            self.retries = 0
            return _Step(page=self._native_page(resp, view))
        sent_cursor = self.pages > 0 or self.cursor is not None
        err = None if ok else _error_code(resp.body)
        expired = (
            (resp.status == 410 and (sent_cursor or err == CURSOR_EXPIRED))
            or (resp.status == 400 and err == "CURSOR_INVALID")
            or (not ok and err == CURSOR_EXPIRED)
            or self._holds(CURSOR_EXPIRED, view)
        )
        if expired:
            msg = "cursor rejected by the server" if err == "CURSOR_INVALID" else None
            self._restart(CURSOR_EXPIRED, "server", msg)
            return _Step()
        if resp.status == 429 or self._holds(RATE_LIMITED, view):
            return self._rate_limited(resp)
        if not ok:
            mapped = self._mapped_error(resp, view, err)
            if not mapped:
                raise ApiError(resp.status, resp.body, pages_read=self.pages)
            for reason in mapped:
                self._add(reason)
            self.finished = True
            return _Step()
        if resp.body is MISSING:
            raise _Violation("the response body is not JSON")
        self.retries = 0
        page = self._adapter_page(resp, view)
        return _Step(page=page)

    def _holds(self, code: str, view: ResponseView) -> bool:
        if self.plan.mode != "adapter":
            return False
        decl = self.plan.decl(code)
        return bool(decl and decl.when is not None and decl.when.holds(view))

    def _mapped_error(self, resp: PageResponse, view: ResponseView, err: str | None) -> list:
        """Reasons an error response maps to (adapter: `when`; native: a declared error code)."""
        if self.plan.mode == "adapter":
            return [
                _reason(d.code, d.origin, d.details)
                for d in self.plan.reasons
                if d.code != MORE and d.when is not None and d.when.holds(view)
            ]
        if err is not None and err in self.plan.declared and err != MORE:
            body_err = resp.body["error"]
            details = {k: v for k, v in body_err.items() if k not in ("code", "message")}
            return [_reason(err, "server", details, body_err.get("message"))]
        return []

    def _rate_limited(self, resp: PageResponse) -> _Step:
        wait = _retry_after(resp.headers, self.clock())
        decl = self.plan.decl(RATE_LIMITED)
        if wait is None and decl is not None:
            wait = decl.details.get("retry_after_s")
        wait = 1.0 if wait is None else float(wait)
        remaining = self._remaining()
        fits = wait <= self.limits.max_retry_wait if remaining is None else wait < remaining
        if fits and self.retries < _MAX_RETRIES_PER_PAGE:
            self.retries += 1
            return _Step(sleep=wait)
        self._add(_reason(RATE_LIMITED, "server", {"retry_after_s": wait}))
        self.stop_continuation = Continuation(kind="retry_after", seconds=wait)
        self.finished = True
        return _Step()

    def _items(self, view: ResponseView) -> list[Any]:
        raw = self.plan.items.evaluate(response=view)
        if raw is MISSING or not isinstance(raw, list):
            raise _Violation("the items location does not hold a list")
        return raw

    def _typed(self, raw_items: list[Any]) -> tuple[list[Any], list[Warning]]:
        """Items as their models; one that does not match is kept as received and warned
        about (ITEM_SCHEMA_MISMATCH), or, with ``strict_items``, ends the walk."""
        if self.parse_item is None:
            return raw_items, []
        out: list[Any] = []
        found: list[tuple[int, Exception]] = []
        for index, raw in enumerate(raw_items):
            try:
                out.append(self.parse_item(raw))
            except Exception as exc:  # pydantic.ValidationError and friends
                if self.strict_items:
                    raise _Violation(self._strict_what(index, exc)) from exc
                found.append((index, exc))
                out.append(raw)
        return out, self._mismatch_warnings(found, 0)

    def _strict_what(self, index: int, exc: Exception, loc_offset: int = 0) -> str:
        warning = item_mismatch_warning(self.item_count + index, exc, loc_offset=loc_offset)
        return f"strict_items: {warning.message}"[:500]

    def _strict_item_failure(self, body: Any) -> None:
        """Under ``strict_items``, say which item broke the page when only items did."""
        found: list[tuple[int, Exception]] = []
        try:
            self.parse_page(body, context={ITEM_MISMATCHES: found})  # type: ignore[misc]
        except Exception:  # noqa: BLE001 - the envelope itself is broken; reported as such
            return
        if found:
            raise _Violation(self._strict_what(found[0][0], found[0][1], 1))

    def _mismatch_warnings(
        self, found: Sequence[tuple[int, Exception]], loc_offset: int
    ) -> list[Warning]:
        """ITEM_SCHEMA_MISMATCH warnings for items of this page (index within the walk)."""
        out: list[Warning] = []
        for index, exc in found:
            self.mismatched += 1
            if self.mismatched > MAX_ITEM_WARNINGS:
                continue
            position = self.item_count + index
            warning = item_mismatch_warning(position, exc, loc_offset=loc_offset)
            if self.mismatched == MAX_ITEM_WARNINGS:
                self.last_mismatch = (_key(warning), position, exc, loc_offset)
            out.append(warning)
        return out

    def _native_page(self, resp: PageResponse, view: ResponseView) -> Page | None:
        plan, body = self.plan, resp.body
        if self.parse_page is not None:
            # The generated envelope model enforces invariants 1-5 and the declared codes; the
            # rules below only run to say precisely which one a rejected page broke.
            found: list[tuple[int, Exception]] = []
            try:
                if self.strict_items:
                    envelope = self.parse_page(body)
                else:
                    envelope = self.parse_page(body, context={ITEM_MISMATCHES: found})
            except Exception as exc:
                self._check_native(body)
                if self.strict_items:
                    self._strict_item_failure(body)
                raise _Violation(_model_what("the envelope does not match its model", exc)) from exc
            reasons = list(envelope.incomplete_reasons)
            warnings = list(envelope.warnings)
            for entry in reasons:
                if entry.code not in plan.declared:
                    raise _Violation(f"undeclared reason code {entry.code}")
            for entry in warnings:
                if entry.code not in plan.warning_codes:
                    raise _Violation(f"undeclared warning code {entry.code}")
            items = list(envelope.items)
            raw_items = self._items(view)
            scope = envelope.scope
            snapshot = scope.snapshot if scope is not None else None
            evidence = envelope.evidence
            warnings += self._mismatch_warnings(found, 1)
        else:
            reasons, warnings = self._check_native(body)
            envelope = body
            raw_items = self._items(view)
            items, mismatches = self._typed(raw_items)
            warnings += mismatches
            scope = body.get("scope")
            snapshot = scope.get("snapshot") if isinstance(scope, Mapping) else None
            evidence = body.get("evidence")
        more = any(r.code == MORE for r in reasons)
        nxt = self._next(view, raw_items) if more else None
        if plan.style in NEXT_STYLES and not plan.last_item:
            has_next = _value(plan.next, view) not in (None, "")
            if has_next != more:
                raise _Violation("'next_cursor' present exactly when MORE_PAGES_AVAILABLE is not")
        return self._accept(resp, items, reasons, warnings, more, nxt, snapshot, evidence, envelope)

    def _check_native(self, body: Any) -> tuple[list[Reason], list[Warning]]:
        """The wire rules of a native page, each with its own message (raises _Violation)."""
        plan = self.plan
        if not isinstance(body, Mapping):
            raise _Violation("the envelope is not a JSON object")
        complete = body.get("complete")
        if not isinstance(complete, bool):
            raise _Violation("the envelope has no boolean 'complete'")
        raw_reasons = body.get("incomplete_reasons") or []
        if isinstance(raw_reasons, list):  # a bare code (the essay's fixtures) reads as {code}
            raw_reasons = [{"code": r} if isinstance(r, str) else r for r in raw_reasons]
        if not isinstance(raw_reasons, list) or not all(
            isinstance(r, Mapping) and isinstance(r.get("code"), str) for r in raw_reasons
        ):
            raise _Violation("'incomplete_reasons' is not a list of objects with a code")
        reasons = []
        for raw in raw_reasons:
            if raw["code"] not in plan.declared:
                raise _Violation(f"undeclared reason code {raw['code']}")
            details = {k: v for k, v in raw.items() if k not in ("code", "message", "origin")}
            reasons.append(_reason(raw["code"], "server", details, raw.get("message")))
        if complete == bool(reasons):
            raise _Violation("'complete' disagrees with 'incomplete_reasons'")
        warnings = self._warnings(body.get("warnings"))
        if not isinstance(self.plan.items.evaluate(response=ResponseView(200, {}, body)), list):
            raise _Violation("the items location does not hold a list")
        return reasons, warnings

    def _warnings(self, raw: Any) -> list[Warning]:
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise _Violation("'warnings' is not a list")
        out = []
        for w in raw:
            code = w.get("code") if isinstance(w, Mapping) else w if isinstance(w, str) else None
            if not isinstance(code, str):
                raise _Violation("a warning has no code")
            if code not in self.plan.warning_codes:
                raise _Violation(f"undeclared warning code {code}")
            details = (
                {k: v for k, v in w.items() if k not in ("code", "message")}
                if isinstance(w, Mapping)
                else {}
            )
            out.append(
                _warning(code, details, w.get("message") if isinstance(w, Mapping) else None)
            )
        return out

    def _adapter_page(self, resp: PageResponse, view: ResponseView) -> Page | None:
        plan = self.plan
        if plan.total is not None and plan.style in ("offset", "page"):
            # Positions shift when the collection changes under offset or page numbers: a
            # different declared total between pages means items may be skipped or repeated.
            total = _value(plan.total, view)
            if (self.pages or self.total is not None) and total != self.total:
                self._restart(
                    SNAPSHOT_CHANGED, "client", "the declared total changed between pages"
                )
                return None
            self.total = total
        raw_items = self._items(view)
        items, mismatches = self._typed(raw_items)
        reasons = [
            _reason(d.code, d.origin, d.details)
            for d in plan.reasons
            if d.code != MORE and d.when is not None and d.when.holds(view)
        ]
        more = self._adapter_more(view, len(raw_items))
        nxt = None
        if more:
            nxt = self._next(view, raw_items)
            if nxt is None and plan.style not in ("offset", "page"):
                raise _Violation("more pages are signalled but no next cursor or link is present")
            reasons.insert(0, _reason(MORE, "server", {}))
        envelope = {
            "items": raw_items,
            "complete": not reasons,
            "incomplete_reasons": [r.model_dump(mode="json", exclude_none=True) for r in reasons],
            "next_cursor": nxt if more else None,
            "scope": None,
            "warnings": [],
            "evidence": None,
        }
        return self._accept(resp, items, reasons, mismatches, more, nxt, None, None, envelope)

    def _adapter_more(self, view: ResponseView, returned: int) -> bool:
        plan = self.plan
        decl = plan.decl(MORE)
        if decl is not None and decl.when is not None:
            return bool(decl.when.holds(view))
        if plan.style in NEXT_STYLES:
            if plan.last_item:
                return returned > 0
            return _value(plan.next, view) not in (None, "")
        if plan.style == "offset":
            # The position is the count of items before this page, resumed or not.
            return self.offset + returned < self._number(plan.total, view, "total")
        if plan.style == "page":
            if plan.pages is not None:
                return self.page_no < self._number(plan.pages, view, "pages")
            if self.before is None:
                # Resumed from a bare page number: assume the earlier pages were as long as
                # this one (page numbering only works with a fixed page size).
                self.before = (self.page_no - 1) * returned
            read = self.before + self.item_count + returned
            more = read < self._number(plan.total, view, "total")
            if more and not returned:
                # Without this an API (or a forged continuation) that answers empty pages
                # before the declared total is reached would be walked forever.
                raise _Violation(
                    f"page {self.page_no} is empty although the declared total says more "
                    "items remain"
                )
            return more
        return False

    def _number(self, expr: Any, view: ResponseView, what: str) -> float:
        value = _value(expr, view)
        if isinstance(value, str) and expr.is_text:  # headers are text on the wire
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _Violation(f"the declared {what} is missing or not a number")
        return value

    def _next(self, view: ResponseView, raw_items: Sequence[Any]) -> str | None:
        """The position of the page after this one (a cursor, URL, offset or page number)."""
        plan = self.plan
        if plan.style == "offset":
            return str(self.offset + len(raw_items))
        if plan.style == "page":
            return str(self.page_no + 1)
        if plan.last_item:
            if not raw_items:
                return None
            value = resolve_pointer(raw_items[-1], plan.next_last_item)
            return None if value is MISSING or value is None else str(value)
        value = _value(plan.next, view)
        if plan.style == "next-url" and value is not None and not isinstance(value, str):
            raise _Violation("the next page's URL in the body is not a string")
        return None if value in (None, "") else str(value)

    def _accept(
        self,
        resp: PageResponse,
        items: list[Any],
        reasons: list[Reason],
        warnings: list[Warning],
        more: bool,
        nxt: str | None,
        snapshot: Any,
        evidence: Any,
        envelope: Any,
    ) -> Page | None:
        """Fold one valid page into the walk: snapshot, reasons, warnings, position."""
        if self.snapshot_seen and snapshot != self.snapshot:
            # Items of a different snapshot are never merged into this walk's result.
            self._restart(SNAPSHOT_CHANGED, "client", "the snapshot changed between pages")
            return None
        if not self.snapshot_seen:
            self.snapshot, self.snapshot_seen = snapshot, True
        self.pages += 1
        self.item_count += len(items)
        for r in reasons:
            if r.code != MORE:
                self._add(r)
        for w in warnings:
            self.warnings.setdefault(_key(w), w)
        page = Page(
            number=self.pages,
            items=items,
            complete=not reasons,
            reasons=tuple(reasons),
            warnings=tuple(warnings),
            next_cursor=nxt if more else None,
            snapshot=snapshot,
            evidence=evidence,
            envelope=envelope,
            response=resp,
        )
        if not more:
            self.finished = True
            if not reasons:
                self.evidence = evidence
            return page
        self._advance(nxt)
        return page

    def _advance(self, nxt: str | None) -> None:
        plan = self.plan
        if nxt is None:
            self._violation("more pages are signalled but there is nothing to continue from")
            return
        if nxt in self.seen or nxt == self._position():
            self._violation(f"repeated cursor {nxt!r}")
            return
        if self._position() is not None:
            self.seen.add(self._position())
        self.seen.add(nxt)
        if plan.style == "offset":
            self.offset = int(nxt)
        elif plan.style == "page":
            self.page_no = int(nxt)
        elif plan.follows_url:
            self.url = nxt  # the fetcher follows it only on the base URL's origin
        else:
            self.url = None
            if plan.req_cursor:
                self.params[plan.req_cursor] = nxt
        self.cursor = nxt

    # -- the result -------------------------------------------------------------------

    def result(self, items: list[Any] | None) -> StreamResult:
        if self.last_mismatch is not None and self.mismatched > MAX_ITEM_WARNINGS:
            key, position, exc, offset = self.last_mismatch
            more = self.mismatched - MAX_ITEM_WARNINGS
            self.warnings[key] = item_mismatch_warning(position, exc, more=more, loc_offset=offset)
        reasons = tuple(self.reasons.values())
        complete = not reasons
        continuation = None if complete else self._continuation(reasons)
        common = {
            "complete": complete,
            "reasons": reasons,
            "continuation": continuation,
            "snapshot": self.snapshot,
            "pages": self.pages,
            "item_count": self.item_count,
            "warnings": tuple(self.warnings.values()),
            "evidence": self.evidence if complete else None,
        }
        if items is None:
            return StreamResult(**common)
        return CollectResult(**common, items=items)

    def _continuation(self, reasons: Sequence[Reason]) -> Continuation:
        if self.stop_continuation is not None:
            return self.stop_continuation
        # The walk ended on a page without MORE_PAGES_AVAILABLE, so no reason can continue by
        # cursor here; client stops set their next_cursor continuation explicitly above.
        kinds = {self.plan.continuation_of(r.code): r for r in reasons}
        kinds.pop("next_cursor", None)
        kind = next((k for k in CONTINUATION_PRIORITY if k in kinds), "none")
        reason = kinds.get(kind)
        if kind == "retry_after":
            seconds = reason.details.get("retry_after_s") if reason else None
            return Continuation(kind=kind, seconds=seconds)
        if kind == "retry_with_deadline":
            budget = reason.details.get("budget_ms") if reason else None
            minimum = math.ceil(2 * budget / 1000) if isinstance(budget, (int, float)) else None
            return Continuation(kind=kind, minimum_seconds=minimum)
        return Continuation(kind=kind)


# --------------------------------------------------------------------------- drivers

SyncFetch = Callable[[PageRequest], PageResponse]
AsyncFetch = Callable[[PageRequest], Awaitable[PageResponse]]


class _WalkerBase:
    def __init__(
        self,
        contract: Any,
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
        contract: Any,
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
        contract: Any,
        fetch: AsyncFetch,
        *,
        parse_page: Callable[..., Any] | None = None,
        parse_item: Callable[[Any], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
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

    def __iter__(self) -> PageStream:
        return self

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

    def __aiter__(self) -> AsyncPageStream:
        return self

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
