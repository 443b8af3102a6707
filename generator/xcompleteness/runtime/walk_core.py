"""The sans-IO core of one walk: which request comes next, and how a response folds in.

:class:`_Core` holds the rules of DESIGN.md §5 exactly once and never does I/O: a driver
(:mod:`.walk_drivers`) asks it for the next :class:`PageRequest`, sends it with the caller's
fetcher and feeds the :class:`PageResponse` back. The core keeps the position (cursor, next URL,
offset or page number, resumed from a continuation), the client limits, the endings (client stop,
contract violation, restart, rate limit), the snapshot and the reasons seen, and builds the
result; reading a page is :mod:`.walk_pages`'s.

Standard library and pydantic only (no httpx, no asyncio): copied verbatim into generated
packages.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .envelope import (
    CONTINUATION_PRIORITY,
    ITEM_SCHEMA_MISMATCH,
    Continuation,
    ContinuationKind,
    Reason,
    Warning,
    item_mismatch_warning,
)
from .expressions import MISSING, ResponseView, UnreadableResponse, resolve_pointer
from .records import record
from .walk_continuations import (
    ContinuationMismatch,
    _params_digest,
    _position_number,
    decode_continuation,
    encode_continuation,
)
from .walk_pages import Cursor, _error_code, _PageReader, _retry_after
from .walk_plan import _Plan
from .walk_results import (
    CLIENT_DEADLINE_EXCEEDED,
    CLIENT_ITEM_LIMIT,
    CLIENT_PAGE_LIMIT,
    CONTRACT_VIOLATION,
    CURSOR_EXPIRED,
    DUPLICATE_CHECK_STOPPED,
    DUPLICATE_ITEMS,
    DUPLICATES_UNCHECKED,
    HTTP_ERROR,
    ITEMS_SEEN_TWICE,
    MAX_DUPLICATE_IDS,
    MAX_ITEM_WARNINGS,
    MAX_SEEN_IDS_ENV,
    MORE,
    RATE_LIMITED,
    RESULT_LIMIT_REACHED,
    SNAPSHOT_CHANGED,
    ApiError,
    CollectResult,
    Limits,
    Page,
    PageRequest,
    PageResponse,
    StreamResult,
    ViolationKind,
    _key,
    _reason,
    _Violation,
    _warning,
    evidence_doubts,
    max_seen_ids,
)

_MAX_RETRIES_PER_PAGE = 3


@record()
class _Step:
    """What the core tells a driver after one response."""

    page: Page | None = None
    sleep: float | None = None


class _Core(_PageReader):
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
        self.violation: ViolationKind | None = None  # which rule ended the walk, if one did
        self.finished = False
        self.retries = 0
        self.seen: set[str] = set()
        self.cursor: Cursor | None = None  # the position the next request starts from
        self.url: str | None = None
        self.offset = 0
        self.page_no = 1
        # Items of this listing read before the walk's first position (by earlier walks this one
        # resumes); None when unknown (a bare page number), then estimated from the first page.
        self.before: int | None = 0
        self.inferred_end: str | None = None  # set by the page reader (pagination.end)
        # A walk resumed inside a page (``j`` of a continuation): how many of the first page's
        # items an earlier answer already holds; they are read again and not handed out.
        self.skip = 0
        self.page_start: tuple[Cursor | None, int | None, int, int] | None = None
        """The last page read: its position, the items before it, how many of its items were
        skipped, how many it handed out (what :meth:`cut` resumes from)."""
        self.ids_seen: set[Any] = set()  # ids of the items read (a declared ``id``)
        self.max_seen_ids = max_seen_ids() if plan.id_pointer is not None else 0
        self.duplicate_ids: list[str] = []
        self.duplicates = 0
        self.largest_page = 0  # the most items one page of this walk held (a cap's last page)
        self.page_size = self._page_size()
        self.trimmed: int | None = None  # the size of a request trimmed to a declared cap
        self.guard = _params_digest(plan.invalidating(self.params))
        self._start(resume)
        if self.skip:
            # ``before + item_count`` stays the listing position: the first page's raw items
            # count from its start; the skipped ones are never handed out (see _accept).
            self.item_count = -self.skip
            if self.before is not None:
                self.before += self.skip

    def _page_size(self) -> int:
        """The page size a ``short-page`` end, or the cap of an unpaged listing
        (``style: none`` with ``request.size``), compares with; the walk sends it itself (the
        caller's size, at most ``max-page-size``; else ``max-page-size``), so it never depends
        on a server default it cannot see."""
        plan = self.plan
        sized = plan.end == "short-page" or plan.capped
        if not sized or not plan.req_size or not plan.max_page_size:
            return 0
        asked = self.params.get(plan.req_size)
        try:
            size = int(str(asked)) if asked is not None else plan.max_page_size
        except ValueError:
            raise ValueError(f"{plan.req_size} must be a whole number, got {asked!r}") from None
        size = max(1, min(size, plan.max_page_size))
        self.params[plan.req_size] = size
        return size

    # -- position ---------------------------------------------------------------------

    def _start(self, resume: Continuation | str | None) -> None:
        plan = self.plan
        given = resume.cursor if isinstance(resume, Continuation) else resume
        state = decode_continuation(given) if isinstance(given, str) else None
        start: Any
        position: Cursor | None = None
        if state is not None:
            position = self._resume_state(state)
        elif given is not None:
            position = _as_cursor(given)  # plain text stays text; a caller's int stays a number
        if plan.style == "offset" and plan.req_offset:
            start = position if position is not None else self.params.get(plan.req_offset, 0)
            self.offset = _position_number(start, plan.req_offset)
            self.params.pop(plan.req_offset, None)
        elif plan.style == "page" and plan.req_page:
            # Pages are numbered from the declared first page (``first-page``: 0 or 1).
            start = position if position is not None else self.params.get(plan.req_page)
            start = plan.first_page if start is None else start
            self.page_no = _position_number(start, plan.req_page)
            self.params.pop(plan.req_page, None)
            if state is None and self.page_no > plan.first_page:
                self.before = None  # a bare page number: how many items precede it is unknown
        elif position is not None:
            if plan.follows_url and (
                plan.style == "next-url" or str(position).startswith(("http://", "https://"))
            ):
                self.url = str(position)  # a next URL (Link header or body): same origin only
            elif plan.req_cursor:
                self.params[plan.req_cursor] = position
        if (
            state is None
            and plan.counts_total
            and (self.url or (plan.req_cursor and plan.req_cursor in self.params))
        ):
            # A bare next URL or cursor (resumed, or the caller's own cursor parameter): the
            # items before it are unknown, so the walk does not compare its count with the total.
            self.before = None
        if plan.req_cursor and plan.req_cursor in self.params:
            self.cursor = self.params[plan.req_cursor] = _as_cursor(self.params[plan.req_cursor])
        elif self.url:
            self.cursor = self.url

    def _resume_state(self, state: Mapping[str, Any]) -> Cursor:
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
        # ``"k": 0``: a token of a walk that counts its total but itself resumed from a bare
        # URL or cursor (how many items came before is unknown, so the total is not compared).
        self.before = None if state.get("k") == 0 else int(state["n"])
        self.skip = int(state.get("j", 0))
        if state.get("t") is not None:
            self.total = state["t"]
        return state["c"]  # text, or the integer a numeric body cursor was (checked on decode)

    def continuation_text(self) -> str | None:
        """The continuation of the position the next request starts from (None at the start).

        Offset and page positions, and every position of an adapter walk whose declaration
        names invalidating parameters (``cursor.invalidated-by``), become the client token of
        :func:`encode_continuation` (the position plus the items read so far, the declared total
        and the invalidating parameters' digest), so a resumed walk knows where the listing
        ends and refuses a continuation of another query. A native cursor or a next link stays
        as the server sent it: the end test needs nothing else, and a native service binds the
        invalidating parameters into its own signed cursor (``ListingTokens``).

        A numeric cursor the walk sends in the JSON request body is carried as that number in
        the client token (plain text could not say whether ``"3"`` was 3), so a resumed walk
        sends ``{"cursor": 3}`` again; in a query or header it is its decimal text.
        """
        position = self._position()
        pending = self.skip if not self.pages else 0  # stopped before the resumed page was read
        if position is None and not pending:
            return None
        read = (self.before or 0) + self.item_count
        return self._token(position, read, pending)

    def _token(self, position: Cursor | None, read: int, skip: int = 0) -> str:
        """The continuation of ``position`` after ``read`` items of the listing, ``skip`` of
        them on the page at ``position`` (see :meth:`continuation_text`)."""
        if position is not None and not isinstance(position, str) and not self.plan.body_cursor:
            position = str(position)  # a query or header carries the number as text anyway
        numbered = self.plan.style in ("offset", "page")
        guarded = (self.plan.mode == "adapter" or numbered) and bool(
            self.plan.invalidated_by & {"filter", "ordering", "page-size"}
        )
        # A cursor, link-header or next-url walk with a declared total carries its count, so a
        # resumed walk can still compare the items read with the total at the end (a bare
        # cursor or URL would lose it).
        counted = self.plan.counts_total and self.before is not None
        plain = not numbered and not guarded and not counted and not skip
        if plain and isinstance(position, str):
            return position
        state: dict[str, Any] = {
            "o": self.plan.operation_id,
            "s": self.plan.style,
            "c": position,
            "n": read,
        }
        if skip:
            state["j"] = skip
        if self.total is not None:
            state["t"] = self.total
        if self.plan.counts_total and self.before is None:
            state["k"] = 0
        if guarded:
            state["q"] = self.guard
        return encode_continuation(state)

    def _position(self) -> Cursor | None:
        """The resumable position of the next request (None at the very start): an offset or
        page number as text, a cursor as the API gave it (text or integer)."""
        if self.plan.style == "offset":
            return str(self.offset)
        if self.plan.style == "page":
            return str(self.page_no)
        return self.cursor

    def _request(self) -> PageRequest:
        params = dict(self.params)
        self.trimmed = None
        if self.plan.style == "offset" and self.plan.req_offset:
            params[self.plan.req_offset] = self.offset
            self._trim_to_cap(params)
        elif self.plan.style == "page" and self.plan.req_page:
            params[self.plan.req_page] = self.page_no
        return PageRequest(params=params, url=self.url, timeout=self._remaining())

    def _trim_to_cap(self, params: dict[str, Any]) -> None:
        """The last page before a declared cap asks only for the items up to it: an API that
        serves ``offset + count <= cap`` (Postmark) refuses a page that reaches past it."""
        cap, size_name = self.plan.cap, self.plan.req_size
        asked = params.get(size_name) if cap is not None and size_name else None
        if cap is None or size_name is None or asked is None or isinstance(asked, bool):
            return
        try:
            size = int(str(asked))
        except ValueError:
            return
        if self.offset < cap < self.offset + size:
            params[size_name] = self.trimmed = cap - self.offset

    def _at_cap(self) -> bool:
        """True (and the walk ends on the declared RESULT_LIMIT_REACHED) when the next request
        would start at or past the declared cap: the API refuses it or answers nothing, so the
        walk never sends it. The reason is the declaration's (its origin, details and
        continuation: ``narrow_query`` unless it says otherwise), never an HTTP_ERROR."""
        cap = self.plan.cap
        if cap is None:
            return False
        if self.plan.style == "offset":
            read: int | None = self.offset
        else:
            read = None if self.before is None else self.before + self.item_count
        if read is None or read < cap:
            return False
        decl = self.plan.decl(RESULT_LIMIT_REACHED)
        assert decl is not None  # plan.cap reads it
        if not any(r.code == RESULT_LIMIT_REACHED for r in self.reasons.values()):
            message = (
                f"the API serves the first {cap} items of this listing (declared limit); the "
                f"walk stopped at item {read} without asking for more; narrow the query"
            )
            self._add(_reason(RESULT_LIMIT_REACHED, decl.origin, dict(decl.details), message))
        self.finished = True
        return True

    def _remaining(self) -> float | None:
        if self.limits.deadline is None:
            return None
        return self.limits.deadline - (self.clock() - self.started)

    # -- driver interface -------------------------------------------------------------

    def next_request(self) -> PageRequest | None:
        """The next request to send, or None when the walk is over (maybe by a client limit)."""
        if self.finished or self._at_cap():
            return None
        if self.pages:
            lim = self.limits
            if lim.max_pages is not None and self.pages >= lim.max_pages:
                self._client_stop(CLIENT_PAGE_LIMIT, max_pages=lim.max_pages)
                return None
            if lim.max_items is not None and self.item_count >= lim.max_items:
                self._client_stop(CLIENT_ITEM_LIMIT, max_items=lim.max_items)
                return None
            remaining = self._remaining()
            if remaining is not None and remaining <= 0:
                self._client_stop(CLIENT_DEADLINE_EXCEEDED, deadline_s=lim.deadline)
                return None
        return self._request()

    def feed(self, response: PageResponse) -> _Step:
        """Account for one response; returns the page (or a wait) and updates the walk state."""
        try:
            return self._feed(response)
        except _Violation as exc:
            self._violation(exc.what, exc.kind)
            return _Step()
        except UnreadableResponse as exc:  # a header the page's reading needs cannot be read
            self._violation(str(exc), "broken_page")
            return _Step()

    def refused(self, what: str) -> None:
        """The fetcher refused to send the request: a violation, never a silent end."""
        self._violation(what, "refused")

    def timed_out(self) -> bool:
        """A request timed out: True (and the walk ends on its deadline) if the deadline passed."""
        remaining = self._remaining()
        if remaining is None or remaining > 0:
            return False
        if self.continuation_text() is not None:
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

    def cut(self, keep: int, code: str, **details: Any) -> None:
        """End the walk after the first ``keep`` items the last page handed out (a tool
        answer's bound): the reason ``code`` (origin client) and a continuation that resumes
        at the next item, exactly: an offset walk at ``offset + keep``, any other at the last
        page's position with ``j`` items of it already read. ``keep`` at least what the page
        handed out is a plain client stop before the next page (none when the walk is over)."""
        if self.page_start is None:
            return
        position, start, skip, handed = self.page_start
        if keep >= handed:
            if not self.finished:
                self._client_stop(code, **details)
            return
        self.item_count -= handed - keep
        self.warnings = {k: w for k, w in self.warnings.items() if not _past(w, self.item_count)}
        read = (start if start is not None else 0) + skip + keep
        inside = skip + keep
        if self.plan.style == "offset":
            token = self._token(str(int(str(position)) + inside), read)
        else:
            token = self._token(position, read - inside, inside)
        self._add(_reason(code, "client", details))
        self.stop_continuation = Continuation(kind="next_cursor", cursor=token)
        self.evidence = None
        self.finished = True

    def _violation(self, what: str, kind: ViolationKind = "broken_page") -> None:
        self._add(_reason(CONTRACT_VIOLATION, "client", {"what": what}))
        if self.violation is None:
            self.violation = kind
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
            if not mapped and self.pages == 0:
                raise ApiError(resp.status, resp.body, pages_read=self.pages)
            if not mapped:
                # Pages were read: end as a partial result that keeps them, never drop them.
                details: dict[str, Any] = {"status": resp.status}
                if err is not None:
                    details["error"] = err
                self._client_stop(HTTP_ERROR, **details)
                return _Step()
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

    def _accept(
        self,
        resp: PageResponse,
        items: list[Any],
        reasons: list[Reason],
        warnings: list[Warning],
        more: bool,
        nxt: Cursor | None,
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
        skip, self.skip = (self.skip, 0) if not self.pages else (0, 0)
        if skip:
            if len(items) <= skip:
                # The page the continuation resumes inside is shorter than it was: the listing
                # moved, and where the next unread item is cannot be known.
                self._restart(
                    SNAPSHOT_CHANGED,
                    "client",
                    f"the page resumed at item {skip} holds {len(items)} items now",
                )
                return None
            warnings = [w for w in warnings if not _before_start(w)]
        start = None if self.before is None else self.before + self.item_count
        self.page_start = (self._position(), start, skip, len(items) - skip)
        self.pages += 1
        self.item_count += len(items)
        self.largest_page = max(self.largest_page, len(items))
        items = items[skip:] if skip else items
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
            next_cursor=None if nxt is None or not more else str(nxt),
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

    def _advance(self, nxt: Cursor | None) -> None:
        plan = self.plan
        if nxt is None:
            self._violation("more pages are signalled but there is nothing to continue from")
            return
        # Positions are compared as text: 3 and "3" are one position to the loop guard (a walk
        # resumed from the text of a numeric cursor must not read its pages twice).
        position = self._position()
        if str(nxt) in self.seen or (position is not None and str(nxt) == str(position)):
            self._violation(f"repeated cursor {nxt!r}", "repeated_cursor")
            return
        if position is not None:
            self.seen.add(str(position))
        self.seen.add(str(nxt))
        if plan.style == "offset":
            self.offset = int(nxt)
        elif plan.style == "page":
            self.page_no = int(nxt)
        elif plan.follows_url:
            self.url = str(nxt)  # the fetcher follows it only on the base URL's origin
        else:
            self.url = None
            if plan.req_cursor:
                self.params[plan.req_cursor] = nxt
        self.cursor = nxt

    def _track_ids(self, raw_items: Sequence[Any]) -> None:
        """Note the declared ``id`` of every item read; an id seen before is a duplicate."""
        pointer = self.plan.id_pointer
        if pointer is None:
            return
        seen, top = self.ids_seen, pointer[0] if len(pointer) == 1 else None
        for index, raw in enumerate(raw_items):
            if top is not None and isinstance(raw, dict):  # the common ``/id``: one lookup
                value = raw.get(top)
            else:
                value = resolve_pointer(raw, pointer)
            if value is MISSING or value is None:
                continue
            key = (
                value if isinstance(value, (str, int, float)) else json.dumps(value, sort_keys=True)
            )
            if key not in seen:
                if len(seen) < self.max_seen_ids:
                    seen.add(key)
                elif (DUPLICATE_CHECK_STOPPED, "") not in self.warnings:
                    self._seen_ids_full(index)
                continue
            self.duplicates += 1
            named = key if isinstance(key, str) else json.dumps(key)
            if named not in self.duplicate_ids and len(self.duplicate_ids) < MAX_DUPLICATE_IDS:
                self.duplicate_ids.append(named)

    def _seen_ids_full(self, index: int) -> None:
        """The set of seen ids is bounded (``XC_MAX_SEEN_IDS``): once full, ids read later are
        not remembered, and the result says so (DUPLICATE_CHECK_STOPPED) instead of growing
        without bound or going quiet."""
        limit, after = self.max_seen_ids, self.item_count + index
        message = (
            f"duplicate detection stopped: the walk remembers at most {limit} distinct ids "
            f"({MAX_SEEN_IDS_ENV}); a repeat of an id read after item {after} is not detected"
        )
        details = {"limit": limit, "after": after}
        self.warnings[(DUPLICATE_CHECK_STOPPED, "")] = _warning(
            DUPLICATE_CHECK_STOPPED, details, message
        )

    def _duplicates(self) -> None:
        """Duplicates are not completeness: under a frozen snapshot the walk is not complete
        (DUPLICATE_ITEMS, restart); a live listing moved under the walk (ITEMS_SEEN_TWICE).

        A frozen listing promises no id twice; a walk that stopped remembering ids
        (DUPLICATE_CHECK_STOPPED) cannot confirm that promise, so under a frozen snapshot the
        stop is the reason DUPLICATES_UNCHECKED (not complete, narrow_query; the items are
        kept), never a complete result with a warning. A live listing only warns."""
        stopped = self.warnings.get((DUPLICATE_CHECK_STOPPED, ""))
        if stopped is not None and self.plan.frozen:
            del self.warnings[(DUPLICATE_CHECK_STOPPED, "")]
            message = (
                "the listing is declared frozen but the walk stopped checking it for repeated "
                f"ids after {stopped.details.get('after')} items ({MAX_SEEN_IDS_ENV}): the end "
                "cannot be confirmed; narrow the query or raise the bound"
            )
            self._add(_reason(DUPLICATES_UNCHECKED, "client", dict(stopped.details), message))
        if not self.duplicates:
            return
        details = {"ids": list(self.duplicate_ids), "count": self.duplicates}
        if self.plan.frozen:
            message = "the same id was read twice although the snapshot is declared frozen"
            self._add(_reason(DUPLICATE_ITEMS, "client", details, message))
            return
        message = "the same id was read twice: the listing moved under the walk"
        warning = _warning(ITEMS_SEEN_TWICE, details, message)
        self.warnings[(ITEMS_SEEN_TWICE, "")] = warning

    # -- the result -------------------------------------------------------------------

    def result(self, items: list[Any] | None) -> StreamResult:
        if self.last_mismatch is not None and self.mismatched > MAX_ITEM_WARNINGS:
            key, position, exc, offset = self.last_mismatch
            more = self.mismatched - MAX_ITEM_WARNINGS
            self.warnings[key] = item_mismatch_warning(position, exc, more=more, loc_offset=offset)
        self._duplicates()
        reasons = tuple(self.reasons.values())
        complete = not reasons
        continuation = None if complete else self._continuation(reasons)
        warnings = tuple(self.warnings.values())
        evidence = self.evidence if complete else None
        if evidence is not None:
            # An inferred or doubted end never carries the API's evidence token.
            doubt = evidence_doubts(
                ((w.code, w.details) for w in warnings), self.plan.evidence_accept
            )
            if doubt is not None:
                evidence, warnings = None, (*warnings, doubt)
        common = {
            "complete": complete,
            "reasons": reasons,
            "continuation": continuation,
            "snapshot": self.snapshot,
            "pages": self.pages,
            "item_count": self.item_count,
            "warnings": warnings,
            "evidence": evidence,
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
        kind: ContinuationKind = next((k for k in CONTINUATION_PRIORITY if k in kinds), "none")
        reason = kinds.get(kind)
        if kind == "retry_after":
            seconds = reason.details.get("retry_after_s") if reason else None
            return Continuation(kind=kind, seconds=seconds)
        if kind == "retry_with_deadline":
            budget = reason.details.get("budget_ms") if reason else None
            minimum = math.ceil(2 * budget / 1000) if isinstance(budget, (int, float)) else None
            return Continuation(kind=kind, minimum_seconds=minimum)
        return Continuation(kind=kind)


def _as_cursor(value: Any) -> Cursor:
    """A cursor a caller gave (a resume or the cursor parameter): text or an integer as given,
    anything else as its text (what the walk always sent)."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return str(value)


def _before_start(warning: Warning) -> bool:
    """An ITEM_SCHEMA_MISMATCH of an item a resumed walk skipped (its index is negative)."""
    index = warning.details.get("index") if warning.code == ITEM_SCHEMA_MISMATCH else None
    return isinstance(index, int) and index < 0


def _past(warning: Warning, count: int) -> bool:
    """An ITEM_SCHEMA_MISMATCH of an item a cut left out of the answer (index >= ``count``)."""
    index = warning.details.get("index") if warning.code == ITEM_SCHEMA_MISMATCH else None
    return isinstance(index, int) and index >= count
