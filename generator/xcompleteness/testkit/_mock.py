"""``xcompleteness mock``: a real loopback server that speaks a spec's completeness contract.

Every declared listing serves deterministic items made from its item schema
(:mod:`~xcompleteness.testkit._mock_items`), paged the way it declares, and injects the faults of
a plan (:mod:`~xcompleteness.testkit._mock_plan`) on the pages the plan names. A native operation
answers with the envelope (``complete``, ``incomplete_reasons``, ``next_cursor``, ``scope`` ...);
an adapter operation answers in its native shape, built so that exactly the declared ``when``
conditions of the reasons the page should carry hold (a ``Link: rel="next"`` header, ``has_more``,
``incomplete_results``, a ``total_count`` over the cap, 410, 429 with ``Retry-After`` ...). The
runtime's own condition evaluator double-checks every built response.

A listing paged in its JSON request body (``pagination.request: {cursor:
$request.body#/marker}``, a POST search) reads its cursor and size from the body's properties,
exactly as a query-paged one reads its parameters. A listing that follows URLs (``link-header``,
``next-url``, native or adapter) gets a next URL on the mock's own origin carrying the position
and the request's URL query; never the body's values: the walk sends the next URL with the same
method and JSON body (its size included), as it sends the first page.

Single reads answer an item made from their response schema; mutations answer 200 and are
recorded (``GET /_mock/calls``), after checking, for a native listing that mints evidence, that
the API evidence in the body is one the mock minted (else 409 ``EVIDENCE_REJECTED``).
``POST /_mock/reset`` forgets mutations, counters and inserted or deleted items.

The answering logic (:class:`MockApi`) is transport-free and directly tested; :func:`make_app`
wraps it in a Starlette app and :func:`serve` serves it with uvicorn (the ``mock`` extra).
:func:`xcompleteness.api.mock` builds it; :mod:`xcompleteness.cli` serves and announces it.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import socket
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from xcompleteness.diagnostics import Diagnostic, InputError, Severity
from xcompleteness.document import pointer_tokens
from xcompleteness.runtime.codes import LISTING_KINDS
from xcompleteness.runtime.contract import (
    Contract,
    Pagination,
    PaginationRequest,
    PaginationResponse,
)
from xcompleteness.runtime.expressions import (
    MISSING,
    Always,
    Combine,
    Compare,
    Condition,
    Expression,
    Present,
    ResponseView,
    read_json,
)
from xcompleteness.testkit._mock_items import ItemFactory
from xcompleteness.testkit._mock_plan import (
    DEFAULT_DETAILS,
    Bug,
    Fault,
    Plan,
    check_plan,
    fault_code,
)

__all__ = [
    "Answer",
    "LINK_PARAM",
    "MORE",
    "MockApi",
    "Operation",
    "build_mock",
    "listen",
    "make_app",
    "mock_from_check",
    "representable",
    "require_server",
    "serve",
]

MORE = "MORE_PAGES_AVAILABLE"
LINK_PARAM = "_mock_cursor"

Answer = tuple[int, dict[str, str], Any]


@dataclass
class Operation:
    """One declared operation as the mock serves it."""

    id: str
    method: str
    path: str
    pattern: re.Pattern[str]
    contract: Contract
    factory: ItemFactory | None
    response_schema: Any = None
    conditions: dict[str, Condition] = field(default_factory=dict)
    header_params: frozenset[str] = frozenset()
    """Lower-cased names of the operation's ``in: header`` parameters: a cursor or size the
    walk sends as a request header (DLx's ``dlx-continuation``) is read from the headers."""

    @property
    def listing(self) -> bool:
        return self.contract.is_listing

    @property
    def adapter(self) -> bool:
        return self.contract.is_adapter

    def declared(self) -> set[str]:
        return set(self.contract.declared_codes)

    def details(self, code: str) -> dict[str, Any]:
        decl = self.contract.reason(code)
        return {} if decl is None else dict(decl.details)

    @property
    def pagination(self) -> Pagination:
        """The declared pagination (an empty one for an unpaginated listing)."""
        pagination = self.contract.pagination
        return pagination or Pagination("none", PaginationRequest(), PaginationResponse())


def _path_pattern(path: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}/]+\})", path)
    regex = "".join(
        f"(?P<p{i}>[^/]+)" if part.startswith("{") else re.escape(part)
        for i, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$")


def _b64(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> Any:
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


class MockApi:
    """The answers of the mock, transport-free: ``handle(method, path, query, body, base)``."""

    def __init__(self, ir: Any, plan: Plan) -> None:
        self.plan = plan
        self.ops: list[Operation] = []
        for op in ir.operations:
            factory = None
            if op.kind in LISTING_KINDS:
                schema = {"$ref": f"#/components/schemas/{op.item_model}"} if op.item_model else {}
                factory = ItemFactory(
                    schema,
                    ir.model_schemas,
                    operation=op.operation_id,
                    seed=plan.seed,
                    id_pointer=op.contract.id,
                    prefix=_prefix(op.contract),
                )
            response = (
                {"$ref": f"#/components/schemas/{op.response_model}"} if op.response_model else {}
            )
            conditions = {r.code: r.when for r in op.contract.reasons if r.when is not None}
            self.ops.append(
                Operation(
                    op.operation_id,
                    op.method.upper(),
                    op.path,
                    _path_pattern(op.path),
                    op.contract,
                    factory,
                    response,
                    conditions,
                    frozenset(p.name.lower() for p in op.parameters if p.location == "header"),
                )
            )
        self.models = ir.model_schemas
        self.code_details: dict[str, dict[str, Any]] = {}
        for code in ir.reason_codes:
            made = self._made(code.details, f"reason:{code.code}").make(0)
            self.code_details[code.code] = made if isinstance(made, dict) else {}
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.data: dict[str, list[Any]] = {}
            self.counters: dict[tuple[str, int, str], int] = {}
            self.calls: list[dict[str, Any]] = []
            self.minted: set[str] = set()
            self.requests = 0
            self._inserted = 0
            for op in self.ops:
                if op.factory is not None:
                    n = self.plan.item_count(op.id)
                    self.data[op.id] = [op.factory.make(i) for i in range(n)]

    # -- routing -----------------------------------------------------------------------------

    def handle(
        self,
        method: str,
        path: str,
        query: Mapping[str, Any],
        body: Any,
        base: str,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        """One answer. ``headers``: the request's headers (any case), read for the paging roles
        the operation declares as ``in: header`` parameters."""
        self.requests += 1
        if path == "/_mock/calls" and method == "GET":
            return 200, {}, {"calls": self.calls}
        if path == "/_mock/reset" and method == "POST":
            self.reset()
            return 200, {}, {"reset": True}
        for op in self.ops:
            match = op.pattern.match(path)
            if match and op.method == method.upper():
                with self._lock:
                    if op.listing:
                        paging = _paging_query(op, query, body, headers or {})
                        return self._listing(op, paging, base, path, dict(query))
                    if op.contract.is_mutation:
                        return self._mutation(op, dict(query), body, match)
                    return self._single(op, match)
        return 404, {}, _error("NOT_FOUND", f"no declared operation answers {method} {path}")

    def _made(self, schema: Any, operation: str) -> ItemFactory:
        return ItemFactory(
            schema or {},
            self.models,
            operation=operation,
            seed=self.plan.seed,
            id_pointer=None,
            prefix="x",
            set_id=False,
        )

    def _single(self, op: Operation, match: re.Match[str]) -> Answer:
        factory = ItemFactory(
            op.response_schema,
            self.models,
            operation=op.id,
            seed=self.plan.seed,
            id_pointer=op.contract.id,
            prefix=_prefix(op.contract),
        )
        item = factory.make(0)
        values = list(match.groupdict().values())
        if values and isinstance(item, dict) and "id" in item and not factory.integer_id:
            item["id"] = values[0]
        if isinstance(item, dict) and op.contract.omitted_fields:
            item.pop("omitted_fields", None)
        return 200, {}, item

    def _mutation(self, op: Operation, query: dict[str, Any], body: Any, match: Any) -> Answer:
        mutation = op.contract.mutation
        self.calls.append({"operation": op.id, "query": query, "body": body})
        token_expr = mutation.token if mutation else None
        source = next((o for o in self.ops if o.id == op.contract.evidence_from), None)
        mints = source is not None and source.contract.mints_evidence
        if isinstance(token_expr, str) and token_expr.startswith("$request.body#/") and mints:
            field_name = token_expr.split("#/", 1)[1]
            given = body.get(field_name) if isinstance(body, dict) else None
            if given not in self.minted:
                self.calls[-1]["refused"] = True
                err = _error("EVIDENCE_REJECTED", "the evidence was not minted by this mock")
                err["error"]["reason"] = "invalid"
                return 409, {}, err
            self.minted.discard(given)
        body = self._made(op.response_schema, op.id).make(len(self.calls))
        return 200, {}, body if isinstance(body, dict) else {}

    # -- listings ----------------------------------------------------------------------------

    def _size(self, op: Operation, query: Mapping[str, Any]) -> int:
        pagination = op.pagination
        if pagination.style == "none" and not pagination.capped:
            # one response is the whole result: serving a page of it would break the very
            # contract the mock stands for (and a walk would call the page complete)
            return max(1, len(self.data[op.id]))
        name = pagination.request.size
        size = self.plan.default_size(op.id)
        if pagination.capped and isinstance(pagination.max_page_size, int):
            # one answer of at most the size asked for (at most max-page-size): a full one
            # holds exactly that many, whatever more the data has
            size = pagination.max_page_size
        if name and str(query.get(name, "")).isdigit():
            size = max(1, int(query[name]))
        cap = pagination.max_page_size
        return min(size, int(cap)) if isinstance(cap, int) and cap > 0 else size

    def _position(self, op: Operation, query: Mapping[str, Any]) -> dict[str, Any] | None:
        """The walk state of this request (None for a tampered cursor)."""
        pagination = op.pagination
        request = pagination.request.to_dict()
        raw = query.get(LINK_PARAM) or (
            query.get(request["cursor"]) if request.get("cursor") else None
        )
        data = self.data[op.id]
        size = self._size(op, query)
        if pagination.response.next_last_item and raw:
            ids = [_id_of(op, x) for x in data]
            if str(raw) not in [str(i) for i in ids]:
                return None
            offset = [str(i) for i in ids].index(str(raw)) + 1
            return {"o": offset, "p": max(1, offset // max(size, 1)), "n": offset, "s": 1}
        if raw:
            try:
                state = _unb64(str(raw))
            except (ValueError, binascii.Error, UnicodeDecodeError):
                return None
            fields = ("o", "p", "n", "s")
            ok = isinstance(state, dict) and all(
                isinstance(state.get(k, 0), int) and state.get(k, 0) >= 0 for k in fields
            )
            return state if ok and "o" in state else None
        for key in ("offset", "page"):
            name = request.get(key)
            if name and str(query.get(name, "")).isdigit():
                value = int(query[name])
                first = pagination.first_page  # pages are numbered from it (first-page)
                offset = value if key == "offset" else max(value - first, 0) * size
                return {"o": offset, "p": offset // max(size, 1), "n": offset, "s": 1}
        return {"o": 0, "p": 0, "n": 0, "s": 1}

    def _listing(
        self,
        op: Operation,
        query: dict[str, Any],
        base: str,
        path: str,
        url_query: Mapping[str, Any] | None = None,
    ) -> Answer:
        """One page of a listing. ``query``: the paging values by name (the URL query and, for a
        body-paged listing, the body's paging properties); ``url_query``: the URL's own query,
        what a next URL carries (the query when not given)."""
        state = self._position(op, query)
        if state is None:
            return 400, {}, _error("CURSOR_INVALID", "the cursor is not one this mock issued")
        page_no = int(state.get("p", 0)) + 1
        sent_cursor = page_no > 1
        faults = [f for f in self.plan.faults if f.applies(op.id, page_no)]
        bugs = {b.kind: b for b in self.plan.bugs if b.applies(op.id, page_no)}
        for fault in faults:
            answer = self._http_fault(op, fault, page_no, sent_cursor)
            if answer is not None:
                return answer
        data = self.data[op.id]
        for fault in faults:
            self._mutate(op, fault, data, int(state["o"]))
        size = self._size(op, query)
        offset = int(state["o"])
        if "duplicate-items" in bugs and offset > 0:
            offset -= 1
        items = data[offset : offset + size]
        advance = offset + len(items)
        reasons: list[dict[str, Any]] = []
        capped = False
        snapshot = int(state.get("s", 1))
        for fault in faults:
            code = fault_code(fault)
            if fault.kind == "snapshot-change":
                snapshot += 1
            if code is None or code == MORE or code not in op.declared():
                continue
            details = {
                **self.code_details.get(code, {}),
                **DEFAULT_DETAILS.get(code, {}),
                **op.details(code),
                **fault.details,
            }
            if fault.kind == "cap":
                details["limit"] = fault.limit or details.get("limit", 1000)
                capped = True
            if fault.kind == "time-budget":
                details.update(_budget_sent(op, query, fault.details))
                if not fault.empty:
                    items = items[: max(len(items) // 2, 1)]
                    advance = offset + len(items)
            if fault.kind == "source-down" and not fault.empty:
                items = items[::2]  # that source's items are missing from this page
            message = f"mock fault {fault.kind} on page {page_no}"
            reasons.append({"code": code, "message": message, **details})
        if "snapshot-drift" in bugs:
            snapshot += 1
        if any(f.empty for f in faults):
            items = []
            advance = offset if not capped else advance
        more = (advance < len(data) or any(f.kind == "empty-page" for f in faults)) and not capped
        more = more and op.pagination.paged  # a capped unpaged answer has no next page
        if "short-page-end" in bugs:
            items, more, reasons = items[: max(len(items) // 2, 0)], False, []
        taint = bool(state.get("t")) or bool(reasons)
        next_state = {
            "o": advance,
            "p": page_no,
            "n": int(state.get("n", 0)) + len(items),
            "s": snapshot,
            "t": taint,
        }
        cursor = _b64(next_state) if more else None
        if "repeat-cursor" in bugs and sent_cursor:
            request = op.pagination.request
            cursor = query.get(LINK_PARAM) or query.get(request.cursor or "") or cursor
            more = True
        next_url = None
        if more:
            carried = url_query if url_query is not None else query
            params = {k: v for k, v in carried.items() if k != LINK_PARAM}
            params[LINK_PARAM] = cursor
            origin = "http://elsewhere.invalid" if "off-origin-next" in bugs else base.rstrip("/")
            next_url = f"{origin}{path}?{urlencode(params)}"
        page = _Page(
            op, items, reasons, more, cursor, snapshot, taint, size, page_no, bugs, next_url
        )
        if op.adapter:
            return self._adapter(page)
        return self._native(page)

    def _http_fault(
        self, op: Operation, fault: Fault, page_no: int, sent_cursor: bool
    ) -> Answer | None:
        if fault.kind == "rate-limit":
            key = (op.id, page_no, "rate")
            self.counters[key] = self.counters.get(key, 0) + 1
            if fault.times is None or self.counters[key] <= fault.times:
                headers = {"Retry-After": str(fault.retry_after)}
                err = _error("RATE_LIMITED", f"mock rate limit on page {page_no}")
                err["error"]["retry_after_s"] = fault.retry_after
                if op.adapter and "RATE_LIMITED" in op.conditions:
                    status, extra, body = _satisfied(op, {"RATE_LIMITED"}, 429, err)
                    return status, {**headers, **extra}, body
                return 429, headers, err
        if fault.kind == "expired-cursor" and sent_cursor:
            err = _error("CURSOR_EXPIRED", "the cursor has expired; restart the listing")
            if op.adapter and "CURSOR_EXPIRED" in op.conditions:
                return _satisfied(op, {"CURSOR_EXPIRED"}, 410, err)
            return 410, {}, err
        return None

    def _mutate(self, op: Operation, fault: Fault, data: list[Any], offset: int) -> None:
        if fault.kind == "insert" and op.factory is not None:
            for _ in range(fault.count):
                self._inserted += 1
                data.insert(0, op.factory.make(self._inserted, tag="0-"))
        elif fault.kind == "delete":
            del data[max(0, offset - fault.count) : offset]

    # -- native ------------------------------------------------------------------------------

    def _native(self, page: _Page) -> Answer:
        op = page.op
        reasons = list(page.reasons)
        if page.more:
            reasons.append({"code": MORE, "message": "more pages follow"})
        if "undeclared-code" in page.bugs:
            reasons.append({"code": "MOCK_UNDECLARED_CODE", "message": "a deliberate bug"})
        complete = not reasons
        scope = op.contract.scope.declared() if op.contract.scope else {}
        scope["snapshot"] = f"mock-s{page.snapshot}"
        evidence = None
        if complete and op.contract.mints_evidence and not page.taint:
            evidence = _b64({"mock-evidence": op.id, "n": len(self.minted) + 1})
            self.minted.add(evidence)
        url_style = op.pagination.style in ("link-header", "next-url")
        next_cursor = (page.next_url if url_style else page.cursor) if page.more else None
        if "complete-with-cursor" in page.bugs:
            complete, reasons = True, []
            next_cursor = next_cursor or _b64({"o": 0, "p": page.number, "s": page.snapshot})
        body: dict[str, Any] = {
            "items": page.items,
            "complete": complete,
            "incomplete_reasons": reasons,
            "next_cursor": next_cursor,
            "scope": scope,
            "page": {
                "returned": len(page.items),
                "requested_size": page.size,
                "ordering": op.pagination.ordering,
            },
            "work": {"sources_planned": 1, "sources_completed": 1, "elapsed_ms": 1},
            "warnings": [],
            "evidence": evidence,
        }
        if "missing-complete" in page.bugs:
            del body["complete"]
        headers: dict[str, str] = {}
        nxt = op.pagination.response.next_expr
        if url_style and nxt is not None and next_cursor is not None:
            # a native service that pages by URL says where next the way it declares
            state = _Building(headers, body, next_cursor, next_cursor)
            state.assign(nxt, next_cursor)
        return 200, headers, body

    # -- adapter -----------------------------------------------------------------------------

    def _adapter(self, page: _Page) -> Answer:
        op = page.op
        pagination = op.pagination
        response = pagination.response
        style = pagination.style
        headers: dict[str, str] = {}
        body: Any = {}
        items_expr = op.contract.items_location
        body = _put_items(items_expr, page.items)
        next_url = page.next_url
        # what a "next" location holds: the URL to follow (next-url), else the cursor
        position = next_url if style == "next-url" else page.cursor
        state = _Building(headers, body, next_url, position)
        if page.more and style == "link-header":
            state.set_link("next", next_url)
        if page.more and response.next_expr is not None and style != "link-header":
            state.assign(response.next_expr, position)
        data = self.data[op.id]
        if response.total_expr is not None:
            state.assign(response.total_expr, len(data))
        if response.pages_expr is not None:
            state.assign(response.pages_expr, math.ceil(len(data) / page.size))
        if response.last_expr is not None:
            state.assign(response.last_expr, not page.more)  # Jira's isLast
        active = {r["code"] for r in page.reasons} | ({MORE} if page.more else set())
        active |= self._counted_total_signals(op)
        for code, condition in op.conditions.items():
            if isinstance(condition, Always):
                continue
            if code in active:
                _make(condition, True, state)
            elif code not in ("RATE_LIMITED", "CURSOR_EXPIRED"):
                _make(condition, False, state)
        return state.status, state.headers, state.body

    def _counted_total_signals(self, op: Operation) -> set[str]:
        """Codes of this listing's planned faults whose native signal is the total a cursor,
        link-header or next-url walk compares (GitHub search's ``total_count`` above 1000).

        The total counts the whole listing, so the API shows it on every page, as GitHub does,
        not only on the faulted one: a total that changes between pages is SNAPSHOT_CHANGED to
        the walk. Offset and page walks end at their total, so theirs stays the item count."""
        total = op.pagination.response.total_expr
        if total is None or op.pagination.style not in ("cursor", "link-header", "next-url"):
            return set()
        out = set()
        for fault in self.plan.faults:
            code = fault_code(fault)
            condition = op.conditions.get(code) if code is not None else None
            if fault.operation not in ("*", op.id) or condition is None:
                continue
            if any(expr == total for _, expr in condition.expressions()):
                out.add(code)
        return out


@dataclass
class _Page:
    op: Operation
    items: list[Any]
    reasons: list[dict[str, Any]]
    more: bool
    cursor: str | None
    snapshot: int
    taint: bool
    size: int
    number: int
    bugs: Mapping[str, Bug]
    next_url: str | None = None


# -- building a native response that satisfies conditions ------------------------------------


class _Building:
    """A native response under construction, settable through runtime expressions."""

    def __init__(
        self, headers: dict[str, str], body: Any, next_url: str | None, cursor: str | None
    ) -> None:
        self.status = 200
        self.headers = headers
        self.body = body
        self.next_url = next_url
        self.cursor = cursor
        self.links: dict[str, str] = {}

    def set_link(self, rel: str, url: str | None) -> None:
        if url is None:
            self.links.pop(rel, None)
        else:
            self.links[rel] = url
        value = ", ".join(f'<{u}>; rel="{r}"' for r, u in sorted(self.links.items()))
        if value:
            self.headers["Link"] = value
        else:
            self.headers.pop("Link", None)

    def view(self) -> ResponseView:
        return ResponseView(status=self.status, headers=dict(self.headers), body=self.body)

    def assign(self, expr: Expression, value: Any) -> None:
        if expr.source == "statusCode":
            if isinstance(value, int):
                self.status = value
        elif expr.source == "response.header":
            if value is MISSING:
                self.headers.pop(str(expr.name), None)
            else:
                self.headers[str(expr.name)] = _wire(value)
        elif expr.source == "response.link":
            url = value if isinstance(value, str) and "://" in value else self.next_url
            self.set_link(str(expr.name), None if value is MISSING else url or "about:blank")
        elif expr.source == "response.body" and expr.pointer and isinstance(self.body, dict):
            node = self.body
            for token in expr.pointer[:-1]:
                child = node.get(token)
                if not isinstance(child, dict):
                    child = node[token] = {}
                node = child
            if value is MISSING:
                node.pop(expr.pointer[-1], None)
            else:
                node[expr.pointer[-1]] = value


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _make(condition: Condition, want: bool, state: _Building) -> None:
    """Change ``state`` so that ``condition`` holds (``want``) or does not; best effort."""
    view = state.view()
    # A body field a comparison reads is written even when its absence already gives the wanted
    # answer: the native schema usually requires it (GitHub's total_count, incomplete_results).
    fill = (
        isinstance(condition, Compare)
        and condition.left.source == "response.body"
        and condition.left.evaluate(view) is MISSING
    )
    if condition.holds(view) == want and not fill:
        return
    if isinstance(condition, Present):
        present = want != condition.negate
        value: Any = MISSING
        if present:
            value = state.next_url if condition.expr.source == "response.link" else True
            if condition.expr.source == "response.body" and state.cursor is not None:
                value = state.cursor
        state.assign(condition.expr, value)
    elif isinstance(condition, Compare):
        right = condition.right
        if isinstance(right, Expression):
            return
        target = right.value
        value = _operand(condition.op, target, want)
        if condition.left.source == "statusCode" and not want:
            value = 200 if target != 200 else 299
        state.assign(condition.left, value)
    elif isinstance(condition, Combine):
        if (condition.op == "all") == want:
            for part in condition.parts:
                _make(part, want, state)
        else:
            _make(condition.parts[0], want, state)


def _operand(op: str, target: Any, want: bool) -> Any:
    """A value for the left side of ``op`` that makes the comparison ``want``."""
    if op in ("equals", "not-equals"):
        equal = want == (op == "equals")
        if equal:
            return target
        if isinstance(target, bool):
            return not target
        if isinstance(target, (int, float)):
            return target + 1
        if target is None:
            return "other"
        return MISSING if not isinstance(target, str) else f"{target}-other"
    if not isinstance(target, (int, float)) or isinstance(target, bool):
        return MISSING
    bigger = {"gt": True, "gte": True, "lt": False, "lte": False}[op]
    if want:
        return target + 1 if bigger else target - 1
    return target if op in ("gt", "lt") else (target - 1 if bigger else target + 1)


def _satisfied(op: Operation, codes: set[str], status: int, body: Any) -> Answer:
    state = _Building({}, body, None, None)
    state.status = status
    for code in codes:
        if code in op.conditions:
            _make(op.conditions[code], True, state)
    return state.status, state.headers, state.body


def representable(contract: Contract, code: str) -> bool:
    """Whether the mock can make ``code``'s ``when`` hold in an adapter operation's response."""
    for r in contract.reasons:
        if r.code != code:
            continue
        condition = r.when
        if condition is None:
            return code == MORE
        state = _Building({}, {}, "http://127.0.0.1/next", "c")
        _make(condition, True, state)
        return condition.holds(state.view())
    return False


def _put_items(expr: str, items: list[Any]) -> Any:
    pointer = expr.split("#", 1)[1] if "#" in expr else ""
    if pointer in ("", "/"):
        return list(items)
    body: dict[str, Any] = {}
    tokens = pointer_tokens(pointer) or ("",)
    node = body
    for token in tokens[:-1]:
        node = node.setdefault(token, {})
    node[tokens[-1]] = list(items)
    return body


def _paging_query(
    op: Operation, query: Mapping[str, Any], body: Any, headers: Mapping[str, str]
) -> dict[str, Any]:
    """The request's paging values by name: its query parameters, the paging roles declared as
    header parameters (a cursor sent in a request header) and, for a listing that pages in its
    JSON request body (``$request.body#/marker``, a POST search), the body properties the walk
    writes, read exactly as a cursor or size sent in the query would be."""
    out = dict(query)
    if op.header_params:
        lowered = {str(k).lower(): v for k, v in headers.items()}
        for name in op.pagination.request.to_dict().values():
            key = str(name).lower() if isinstance(name, str) else ""
            if key in op.header_params and key in lowered:
                out[name] = lowered[key]
    names = op.pagination.request.body_names
    if names and isinstance(body, Mapping):
        for name in names:
            value = body.get(name)
            if value is not None and not isinstance(value, (dict, list)):
                out[name] = _wire(value)
    return out


def _id_of(op: Operation, item: Any) -> Any:
    node = item
    for token in op.factory.id_tokens if op.factory else ("id",):
        node = node.get(token) if isinstance(node, dict) else None
    return node


def _prefix(contract: Contract) -> str:
    resource = str((contract.scope.resource if contract.scope else None) or "item")
    clean = re.sub(r"[^a-z0-9]+", "-", resource.lower()).strip("-")
    return (clean or "item")[:24]


def _error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


# -- building from a spec --------------------------------------------------------------------


def build_mock(spec: str, overlays: Sequence[str] = (), plan_path: str | None = None) -> MockApi:
    """Check the spec, load the plan, build the :class:`MockApi` (InputError when unusable)."""
    from xcompleteness.check import check_spec

    result = check_spec(spec, overlays)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise InputError(errors)
    return mock_from_check(result, plan_path, ir=None)


def mock_from_check(result: Any, plan_path: str | None, *, ir: Any = None) -> MockApi:
    """The :class:`MockApi` of an already checked spec (``check_spec``) and a plan file."""
    from xcompleteness.ir import build_ir
    from xcompleteness.load import load_data
    from xcompleteness.testkit._mock_plan import load_plan

    plan, _, origin = load_plan(plan_path)
    lines: Mapping[str, int] = {}
    if plan_path is not None:
        from pathlib import Path

        from xcompleteness.load import Limits

        _, lines, _ = load_data(Path(plan_path), origin, Limits.from_env())
    problems = check_plan(
        plan, result.contracts, origin=origin, lines=lines, representable=representable
    )
    if problems:
        raise InputError(problems)
    listings = [c for c in result.contracts.values() if c.is_listing]
    if not listings:
        raise InputError(
            [
                Diagnostic(
                    result.doc.origin,
                    "",
                    "XC707",
                    Severity.ERROR,
                    "the spec declares no listing: there is nothing to mock",
                    "declare x-completeness on a collection, search or aggregate operation",
                )
            ]
        )
    return MockApi(ir if ir is not None else build_ir(result, "mock"), plan)


def make_app(api: MockApi) -> Any:
    """A Starlette app answering every request through ``api`` (JSON in, JSON out)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def endpoint(request: Request) -> JSONResponse:
        body: Any = None
        raw = await request.body()
        if raw:
            try:
                body = read_json(raw)
            except ValueError:
                return JSONResponse(_error("INVALID_REQUEST", "the body is not JSON"), 400)
        base = str(request.base_url)
        status, headers, payload = api.handle(
            request.method,
            request.url.path,
            dict(request.query_params),
            body,
            base,
            dict(request.headers),
        )
        return JSONResponse(payload, status_code=status, headers=headers)

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return Starlette(routes=[Route("/{path:path}", endpoint, methods=methods)])


def _diag(code: str, message: str, hint: str, file: str = "") -> Diagnostic:
    return Diagnostic(file, "", code, Severity.ERROR, message, hint)


def require_server() -> None:
    """Raise :class:`InputError` (``XC705``) unless uvicorn and starlette are installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise InputError(
            [
                _diag(
                    "XC705",
                    "xcompleteness mock needs uvicorn and starlette",
                    "pip install 'uvicorn>=0.29' 'starlette>=0.37' (the [mock] extra of "
                    "x-completeness)",
                )
            ]
        ) from None


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (``XC706`` when it cannot be had)."""
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it: without, uvicorn's h11 answers wait ~40 ms for the
        # peer's delayed ACK (Nagle), a 5x slower mock (bench/bench_testkit.py).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        raise InputError(
            [
                _diag(
                    "XC706",
                    f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                    "choose a free port (0 picks one) on a local address",
                )
            ]
        ) from None
    return sock


def serve(api: MockApi, sock: socket.socket, *, on_ready: Callable[[], None]) -> None:
    """Serve ``api`` on ``sock`` with uvicorn until stopped; ``on_ready`` once it accepts."""
    import uvicorn

    config = uvicorn.Config(make_app(api), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    original = server.startup

    async def announce(sockets: list[Any] | None = None) -> None:
        await original(sockets=sockets)
        on_ready()

    server.startup = announce  # type: ignore[method-assign]
    server.run(sockets=[sock])


def _budget_sent(op: Operation, query: dict[str, Any], fixed: dict[str, Any]) -> dict[str, Any]:
    """``budget_ms``/``elapsed_ms`` of a time-budget fault from the budget the request sent.

    The declared deadline parameter (``deadline: {param, unit}``) read in its unit (ms or s);
    the answer ran just past it. A plan's own ``budget_ms`` wins; no parameter sent (or none
    declared): the declared default, else the plan's or the standard details stay.
    """
    deadline = op.contract.deadline
    if deadline is None or deadline.param is None or "budget_ms" in fixed:
        return {}
    raw = query.get(deadline.param, deadline.default)
    try:
        value = float(raw) if raw is not None else None
    except (TypeError, ValueError):
        value = None
    if value is None or value < 0:
        return {}
    budget = int(round(value * 1000)) if deadline.unit == "s" else int(round(value))
    return {"budget_ms": budget, "elapsed_ms": budget + 4}
