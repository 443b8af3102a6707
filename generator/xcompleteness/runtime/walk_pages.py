"""The page readers: what one response says, per envelope mode and pagination style.

A native page is read through the generated envelope model (or the wire rules of
:meth:`_PageReader._check_native` without one); an adapter page is read at the declared
locations, and whether more pages follow and where the next one starts depend on the pagination
style (cursor, link-header, next-url, last-item cursor, offset, page). Items are typed with the
caller's model; an item that does not match is kept and warned about (ITEM_SCHEMA_MISMATCH).

:class:`_PageReader` is a mixin of :class:`.walk_core._Core`: it reads the walk state the core
keeps (``plan``, ``item_count``, ``offset``, ``page_no``, ``before``, ``total`` ...) and hands a
read page to the core's ``_accept``; a broken rule raises :class:`_Violation`.

Standard library and pydantic only (no httpx): copied verbatim into generated packages.
"""

from __future__ import annotations

import email.utils
import json
import math
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .envelope import ITEM_MISMATCHES, Reason, Warning, item_mismatch_warning
from .expressions import MISSING, ResponseView, parse_expression, resolve_pointer

if TYPE_CHECKING:
    from collections.abc import Callable

    from .walk_plan import _Plan

from .walk_results import (
    CONTRACT_VIOLATION,
    END_INFERRED,
    MAX_ITEM_WARNINGS,
    MORE,
    NEXT_STYLES,
    RESULT_LIMIT_REACHED,
    SNAPSHOT_CHANGED,
    Page,
    PageResponse,
    ViolationKind,
    _key,
    _reason,
    _Violation,
    _warning,
)

Cursor = str | int
"""A cursor as the API handed it out: JSON text or a JSON integer (never a bool or float)."""

_PREV_LINK = parse_expression("$response.link.prev")
_END_SIGNALS = {
    "next-url": "no next URL",
    "link-header": "no next link",
    "cursor": "no next cursor",
}
"""How each style's own end signal is named in a total mismatch's ``what``."""


def _shown(number: float) -> float | int:
    """A count as people write it (8, not 8.0)."""
    return int(number) if float(number).is_integer() else number


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


class _PageReader:
    """Reads one page for the walk core (a mixin of :class:`.walk_core._Core`)."""

    if TYPE_CHECKING:  # the walk state and hooks :class:`.walk_core._Core` provides
        plan: _Plan
        parse_page: Callable[..., Any] | None
        parse_item: Callable[[Any], Any] | None
        strict_items: bool
        mismatched: int
        last_mismatch: tuple[tuple[str, str], int, Exception, int] | None
        pages: int
        item_count: int
        total: Any
        offset: int
        page_no: int
        before: int | None
        page_size: int
        largest_page: int
        cursor: Cursor | None
        trimmed: int | None
        inferred_end: str | None
        violation: ViolationKind | None
        reasons: dict[tuple[str, str], Reason]

        def _track_ids(self, raw_items: Sequence[Any]) -> None: ...

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
        ) -> Page | None: ...

        def _restart(self, code: str, origin: str, message: str | None = None) -> None: ...

    def _items(self, view: ResponseView) -> list[Any]:
        raw = self.plan.items.evaluate(response=view)
        if raw is MISSING or not isinstance(raw, list):
            raise _Violation("the items location does not hold a list", "items_not_a_list")
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
        self._track_ids(raw_items)
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
            raise _Violation("the items location does not hold a list", "items_not_a_list")
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
            if total is not None:
                total = self._number(plan.total, view, "total")  # a total is a number, or broken
            if (self.pages or self.total is not None) and total != self.total:
                self._restart(
                    SNAPSHOT_CHANGED, "client", "the declared total changed between pages"
                )
                return None
            self.total = total
        elif plan.counts_total:
            if self._counted_total(view):
                return None
        raw_items = self._items(view)
        items, mismatches = self._typed(raw_items)
        reasons = [
            _reason(d.code, d.origin, d.details)
            for d in plan.reasons
            if d.code != MORE and d.when is not None and d.when.holds(view)
        ]
        full = plan.capped and len(raw_items) >= self.page_size
        if full and not any(r.code == RESULT_LIMIT_REACHED for r in reasons):
            reasons.append(self._full_answer(len(raw_items)))
        self.inferred_end = None
        more = self._adapter_more(view, len(raw_items))
        if self.inferred_end is not None:
            end = {"end": self.inferred_end, "page": self.pages + 1}
            message = (
                f"the walk ended on {'an empty' if not raw_items else 'a short'} page "
                f"(pagination.end: {self.inferred_end}); the API gave no end signal"
            )
            mismatches.append(_warning(END_INFERRED, end, message))
        if not more and plan.counts_total and not reasons:
            reasons.extend(self._short_of_total(view, len(raw_items)))
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
            "next_cursor": None if nxt is None or not more else str(nxt),
            "scope": None,
            "warnings": [],
            "evidence": None,
        }
        self._track_ids(raw_items)
        return self._accept(resp, items, reasons, mismatches, more, nxt, None, None, envelope)

    def _counted_total(self, view: ResponseView) -> bool:
        """Read the declared total of a cursor, link-header or next-url walk (True when the
        walk ended on it).

        The total is evidence, not the end signal (the next cursor or URL is): a page without
        it is not compared (some APIs count only on the first page), a value that is not a
        number is a CONTRACT_VIOLATION, and a total that differs from an earlier page's means
        the collection moved under the walk: SNAPSHOT_CHANGED, restart (as for offset and
        page). A fresh link-header walk whose first page links to a previous one did not
        start at the listing's start: the items before it are unknown, so it does not compare."""
        fresh = not self.pages and self.cursor is None  # the walk's first page, not resumed
        if fresh and self.plan.style == "link-header" and _value(_PREV_LINK, view):
            self.before = None
        if _value(self.plan.total, view) is None:
            return False
        total = self._number(self.plan.total, view, "total")
        if self.total is not None and total != self.total:
            self._restart(SNAPSHOT_CHANGED, "client", "the declared total changed between pages")
            return True
        self.total = total
        return False

    def _short_of_total(self, view: ResponseView, returned: int) -> list[Reason]:
        """The reason a walk the API ended reads when its item count is not the declared total.

        CONTRACT_VIOLATION (the API's end signal and its count disagree: items are missing, or
        more came than it counts), unless the listing declares a cap (RESULT_LIMIT_REACHED with
        a ``limit``) that explains the shortfall: the total counts more than the cap and the walk
        ended at the cap (within its last page), eBay's and Postmark's 10,000; that is the
        declared RESULT_LIMIT_REACHED (``narrow_query``). Not compared when the total was never
        read, when an earlier reason already made the walk partial (a cap or a source down
        explains a shortfall), or when the items read before a resumed position are unknown."""
        if self.total is None or self.before is None or self.reasons:
            return []
        read = self.before + self.item_count + returned
        if read == self.total:
            return []
        total = _shown(self.total)
        cap = self.plan.cap
        page = max(returned, self.largest_page)
        if cap is not None and read < self.total and cap < self.total and cap - page < read <= cap:
            decl = self.plan.decl(RESULT_LIMIT_REACHED)
            assert decl is not None  # plan.cap reads it
            message = (
                f"the walk ended after {read} items at the declared cap of {cap}, but the API "
                f"counts {total}: narrow the query to reach the rest"
            )
            return [_reason(RESULT_LIMIT_REACHED, decl.origin, dict(decl.details), message)]
        ended = _END_SIGNALS.get(self.plan.style, "the API's end signal")
        if self.plan.last is not None and _value(self.plan.last, view) is not None:
            ended = "the last-page field"
        what = (
            f"the walk ended ({ended}) after {read} items, but the declared total is "
            f"{total}: {'items are missing' if read < self.total else 'more items than it counts'}"
        )
        if cap is not None:
            what += f" (the declared cap of {cap} does not explain it)"
        self.violation = self.violation or "total_mismatch"
        return [_reason(CONTRACT_VIOLATION, "client", {"what": what})]

    def _full_answer(self, returned: int) -> Reason:
        """RESULT_LIMIT_REACHED for an unpaged answer as long as the size the walk sent: the
        API may hold more, and no page can be asked for (continuation ``narrow_query``).
        ``limit`` is the size sent (a ``when`` of the same code that held already said it)."""
        decl = self.plan.decl(RESULT_LIMIT_REACHED)
        size, name = self.page_size, self.plan.req_size
        details = {**(decl.details if decl is not None else {}), "limit": size}
        message = (
            f"the answer holds {returned} items, as many as {name}={size} asked for: more may "
            "exist and no further page can be asked for; narrow the query"
        )
        return _reason(
            RESULT_LIMIT_REACHED, decl.origin if decl is not None else "server", details, message
        )

    def _adapter_more(self, view: ResponseView, returned: int) -> bool:
        plan = self.plan
        decl = plan.decl(MORE)
        if decl is not None and decl.when is not None:
            return bool(decl.when.holds(view))
        if plan.last is not None:
            more = not self._flag(plan.last, view)
            if more and not returned and plan.style in ("offset", "page"):
                # An API that answers empty pages while saying "not the last" would be walked
                # forever (an offset that does not move is caught as a repeated position).
                raise _Violation(
                    "the page is empty although the declared last-page field says more follow"
                )
            return more
        if plan.end is not None:
            return self._end_rule_more(view, returned)
        return self._signal_more(view, returned)

    def _end_rule_more(self, view: ResponseView, returned: int) -> bool:
        """``pagination.end``: the style's own signal when the API gives one (a confirmed end),
        else an empty (``empty-page``) or short (``short-page``) page ends the walk, inferred."""
        plan = self.plan
        if plan.style in NEXT_STYLES and not plan.last_item:
            if _value(plan.next, view) in (None, ""):
                return False  # the API's own end signal: no next cursor or link
        elif (plan.style == "offset" and plan.total is not None) or (
            plan.style == "page" and (plan.total is not None or plan.pages is not None)
        ):
            if not self._signal_more(view, returned):
                return False
        size = self.page_size if self.trimmed is None else min(self.page_size, self.trimmed)
        short = returned == 0 if plan.end == "empty-page" else returned < size
        if short:
            self.inferred_end = plan.end
            return False
        return True

    def _flag(self, expr: Any, view: ResponseView) -> bool:
        value = _value(expr, view)
        if isinstance(value, str) and expr.is_text and value.lower() in ("true", "false"):
            value = value.lower() == "true"  # a header says it as text
        if not isinstance(value, bool):
            raise _Violation("the declared last-page field is missing or not a boolean")
        return value

    def _signal_more(self, view: ResponseView, returned: int) -> bool:
        """Whether more pages follow by the style's own signal (next, total or pages)."""
        plan = self.plan
        if plan.style in NEXT_STYLES:
            if plan.last_item:
                return returned > 0
            return _value(plan.next, view) not in (None, "")
        if plan.style == "offset":
            # The position is the count of items before this page, resumed or not.
            return self.offset + returned < self._number(plan.total, view, "total")
        if plan.style == "page":
            # How many pages precede this one: pages count from the declared first page.
            index = self.page_no - plan.first_page
            if plan.pages is not None:
                return index + 1 < self._number(plan.pages, view, "pages")
            if self.before is None:
                # Resumed from a bare page number: assume the earlier pages were as long as
                # this one (page numbering only works with a fixed page size).
                self.before = index * returned
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
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            shown = json.dumps(value)[:60] if value is not None else "missing"
            raise _Violation(f"the declared {what} is missing or not a number ({shown})")
        return value

    def _next(self, view: ResponseView, raw_items: Sequence[Any]) -> Cursor | None:
        """The position of the page after this one (a cursor, URL, offset or page number).

        A cursor keeps its JSON type (a string or an integer): a numeric cursor goes back into a
        JSON request body as the number it was (``{"cursor": 3}``, what a strict server needs),
        into a query or header as its decimal text."""
        plan = self.plan
        if plan.style == "offset":
            return str(self.offset + len(raw_items))
        if plan.style == "page":
            return str(self.page_no + 1)
        if plan.next_last_item is not None:  # plan.last_item
            if not raw_items:
                return None
            value = resolve_pointer(raw_items[-1], plan.next_last_item)
            if value is MISSING or value is None:
                return None
            return _cursor(value, "the last item's id the next page starts after")
        value = _value(plan.next, view)
        if plan.style == "next-url" and value is not None and not isinstance(value, str):
            raise _Violation("the next page's URL in the body is not a string")
        return None if value in (None, "") else _cursor(value, "the next cursor")


def _cursor(value: Any, what: str) -> Cursor:
    """``value`` as a cursor the walk can send back unchanged (raises _Violation otherwise)."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    kind = {bool: "a boolean", float: "a fractional number", dict: "an object", list: "a list"}
    shown = json.dumps(value)[:60]
    raise _Violation(
        f"{what} is {kind.get(type(value), type(value).__name__)} ({shown}), not a string or an "
        "integer: the walk cannot send it back as the API gave it"
    )
