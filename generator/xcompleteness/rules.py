"""Semantic rules over canonical contracts: codes ``XC100``-``XC125``, ``XC130``-``XC140``.

The JSON Schema in ``spec_ext/`` says whether a declaration is well formed; these rules say
whether it is *true of this spec*: the locations it names exist, the codes it uses are known,
the pieces that must go together do. Every rule is listed (code, severity, meaning) in
``RULES`` and documented in docs/cli.md; tests/invalid/ holds one failing spec per rule.

Rules run only on declarations whose contract validated (``check.py`` builds ``contracts``),
so they can rely on the canonical shape, and never raise on odd input: a question they cannot
answer (an open schema, an external ``$ref``) is no finding.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.contract import iter_operations
from xcompleteness.diagnostics import Diagnostic, Severity, pointer_join
from xcompleteness.listlike import undeclared_listings
from xcompleteness.load import SourceDoc
from xcompleteness.rules_locations import (
    Found,
    parameters,
    request_schemas,
    response_headers,
    response_schemas,
    schema_lookup,
    schema_types_at,
)
from xcompleteness.runtime.contract import Contract, CursorRules
from xcompleteness.runtime.expressions import (
    Expression,
    ExpressionError,
    parse_condition,
    parse_expression,
)

E, W = Severity.ERROR, Severity.WARNING

RULES: dict[str, tuple[Severity, str]] = {
    "XC100": (W, "a GET operation looks like a list or search but has no x-completeness"),
    "XC101": (E, "a declared operation has no operationId"),
    "XC102": (E, "a declared operation's operationId is not unique"),
    "XC103": (E, "the items location does not exist in the success response"),
    "XC104": (E, "the id pointer does not exist in the item schema"),
    "XC105": (E, "a pagination response location (next, last-item, total, pages) does not exist"),
    "XC106": (E, "a location used in a 'when' condition does not exist in any response"),
    "XC107": (W, "$response.link.* is used but no response declares a Link header"),
    "XC108": (E, "a runtime expression or condition does not parse"),
    "XC109": (E, "an expression reads the wrong side (request vs response) for where it is used"),
    "XC110": (E, "a reason code is neither standard nor registered"),
    "XC111": (E, "a warning code is neither standard nor registered"),
    "XC112": (E, "a continuation kind does not fit its reason"),
    "XC113": (E, "MORE_PAGES_AVAILABLE is declared but there is no way to the next page"),
    "XC114": (W, "the listing is paginated but cannot report MORE_PAGES_AVAILABLE"),
    "XC115": (E, "cursor on-expiry: error needs CURSOR_EXPIRED among the reasons"),
    "XC116": (E, "mutation evidence 'from' names no declared operation"),
    "XC117": (E, "mutation evidence 'from' names an operation that does not mint evidence"),
    "XC118": (E, "recheck each-target names no operation declared with kind: resource"),
    "XC119": (W, "a custom code is past its review-by date"),
    "XC120": (E, "the deadline parameter is not a query parameter of the operation"),
    "XC121": (E, "a pagination request parameter is not a parameter of the operation"),
    "XC122": (E, "a request location (mutation ids/token) does not exist in the request"),
    "XC123": (E, "the omitted-fields location does not exist in the success response"),
    "XC124": (E, "a reason or warning code is declared twice on one operation"),
    "XC125": (
        W,
        "a declared code that is client-only (origin: client) appears among server reasons or "
        "warnings",
    ),
    "XC140": (E, "a next-url pagination location is not a string in the response schema"),
    "XC130": (
        W,
        "an adapter cursor is invalidated by authorization or an x- value: documentation only "
        "(the client cannot check it; the API must)",
    ),
    "XC131": (
        W,
        "an adapter cursor's frozen snapshot or ttl is documentation only (the client cannot "
        "verify a foreign API's snapshot or cursor lifetime)",
    ),
}
"""Every rule code with its severity and one-line meaning (docs/cli.md lists the same)."""

ENVELOPE_FIELDS = frozenset(
    {
        "items",
        "complete",
        "incomplete_reasons",
        "next_cursor",
        "scope",
        "page",
        "work",
        "warnings",
        "evidence",
    }
)
"""Top-level envelope fields a native service returns (written in by the generator)."""


def run_rules(
    doc: SourceDoc,
    contracts: Mapping[str, Contract],
    registry: Any,
    *,
    today: _dt.date | None = None,
) -> list[Diagnostic]:
    """Run every rule; ``contracts`` maps operationId to canonical contract (validated ones)."""
    ctx = _Context(doc, contracts, registry)
    out: list[Diagnostic] = []
    out.extend(ctx.operation_ids())
    out.extend(ctx.undeclared_listings())
    for contract in contracts.values():
        out.extend(ctx.contract(contract))
    out.extend(_review_dates(doc, registry, today or _dt.date.today()))
    return out


class _Context:
    def __init__(self, doc: SourceDoc, contracts: Mapping[str, Contract], registry: Any):
        self.doc = doc
        self.data = doc.data
        self.contracts = contracts
        self.registry = registry
        self.ops: dict[str, tuple[str, str, dict[str, Any], str]] = {}
        for path, method, operation, pointer in iter_operations(self.data):
            op_id = operation.get("operationId")
            if isinstance(op_id, str):
                self.ops.setdefault(op_id, (path, method, operation, pointer))

    def d(self, pointer: str, code: str, message: str, hint: str = "") -> Diagnostic:
        return self.doc.diag(pointer, code, message, hint=hint, severity=RULES[code][0])

    # ---------------------------------------------------------------- document-wide rules

    def operation_ids(self) -> Iterator[Diagnostic]:
        seen: dict[str, str] = {}
        for _path, _method, operation, pointer in iter_operations(self.data):
            op_id = operation.get("operationId")
            decl = operation.get("x-completeness")
            declared = decl is not None and not (
                isinstance(decl, dict) and decl.get("kind") == "none"
            )
            if isinstance(op_id, str) and op_id in seen and declared:
                yield self.d(
                    pointer_join(pointer, "operationId"),
                    "XC102",
                    f"operationId {op_id!r} is also used at {seen[op_id]}",
                    "give every operation a unique operationId",
                )
            elif declared and not isinstance(op_id, str):
                yield self.d(
                    pointer,
                    "XC101",
                    "this operation has an x-completeness declaration but no operationId",
                    "add an operationId: generated names and evidence 'from' use it",
                )
            if isinstance(op_id, str):
                seen.setdefault(op_id, pointer)

    def undeclared_listings(self) -> Iterator[Diagnostic]:
        # The one list-likeness heuristic, shared with ``audit`` (listlike.py), so that check on a
        # spec plus audit's draft overlay reports exactly the draft's TODOs and nothing else.
        for pointer, why in sorted(undeclared_listings(self.data).items()):
            parts = _split(pointer) or ()
            method = parts[2].upper() if len(parts) > 2 else "GET"
            path = parts[1] if len(parts) > 1 else "?"
            yield self.d(
                pointer,
                "XC100",
                f"{method} {path} looks like a listing ({why}) but declares no x-completeness",
                "declare kind, scope, pagination and reasons (xcompleteness audit "
                "drafts an overlay), or kind: resource if it is a single read",
            )

    # ---------------------------------------------------------------- per-contract rules

    def contract(self, c: Contract) -> Iterator[Diagnostic]:
        op_id = c.operation_id
        entry = self.ops.get(op_id) if isinstance(op_id, str) else None
        if entry is None:
            return
        path, _method, operation, _op_pointer = entry
        paths = self.data.get("paths")
        item = paths.get(path) if isinstance(paths, Mapping) else None
        at = str(c.pointer)
        native = not c.is_adapter
        yield from self._codes(c, at)
        yield from self._items_and_id(c, operation, at, native)
        yield from self._pagination(c, operation, item, at, native)
        yield from self._when(c, operation, at)
        yield from self._deadline(c, operation, item, at)
        yield from self._mutation(c, operation, at)
        if c.omitted_fields:
            expr = self._expr(c.omitted_fields, pointer_join(at, "omitted-fields"), "response")
            if isinstance(expr, Expression) and expr.source == "response.body":
                yield from self._body_location(
                    operation,
                    expr,
                    pointer_join(at, "omitted-fields"),
                    "XC123",
                    native=False,
                    what="omitted-fields",
                )
            elif isinstance(expr, Diagnostic):
                yield expr

    def _codes(self, c: Contract, at: str) -> Iterator[Diagnostic]:
        seen: set[str] = set()
        for i, reason in enumerate(c.reasons):
            code = reason.code
            here = pointer_join(at, "reasons", i)
            info = self.registry.reason(code)
            if code in seen:
                yield self.d(here, "XC124", f"reason {code} is declared twice")
            seen.add(code)
            if info is None:
                hint = "use a standard code or register it under x-completeness-registry.reasons"
                if self.registry.warning(code) is not None:
                    hint = f"{code} is a warning code: list it under warnings"
                yield self.d(here, "XC110", f"unknown reason code {code!r}", hint)
                continue
            if info.origin == "client":
                yield self.d(
                    here,
                    "XC125",
                    f"{code} is a client code; clients add it themselves",
                    "remove it from the server's reasons",
                )
            kind = reason.continuation
            continuations = tuple(self.registry.continuations)
            if kind not in continuations:
                yield self.d(
                    here,
                    "XC112",
                    f"unknown continuation kind {kind!r} for {code}",
                    f"use one of {', '.join(continuations)}",
                )
            elif info.standard and info.continuation and kind != info.continuation:
                yield self.d(
                    here,
                    "XC112",
                    f"{code} continues with {info.continuation!r}, not {kind!r}",
                    "drop the continuation override; standard codes fix their kind",
                )
            elif (
                kind == "next_cursor"
                and c.pagination is None
                and code != "MORE_PAGES_AVAILABLE"  # XC113 says it better
            ):
                yield self.d(
                    here,
                    "XC112",
                    f"{code} continues with next_cursor but the operation has no pagination",
                    "declare pagination or choose another continuation",
                )
        warned: set[str] = set()
        for i, code in enumerate(c.warnings):
            here = pointer_join(at, "warnings", i)
            if code in warned:
                yield self.d(here, "XC124", f"warning {code} is declared twice")
            warned.add(code)
            if self.registry.warning(code) is None:
                hint = "use a standard code or register it under x-completeness-registry.warnings"
                if self.registry.reason(code) is not None:
                    hint = f"{code} is a reason code: list it under reasons"
                yield self.d(here, "XC111", f"unknown warning code {code!r}", hint)
            elif self.registry.warning(code).origin == "client":
                yield self.d(
                    here,
                    "XC125",
                    f"{code} is a client warning; clients add it themselves",
                    "remove it from the server's warnings",
                )

    def _items_and_id(
        self, c: Contract, operation: Mapping[str, Any], at: str, native: bool
    ) -> Iterator[Diagnostic]:
        if not c.is_listing or not c.items:
            return
        where = pointer_join(at, "items")
        expr = self._expr(c.items, where, "response")
        if isinstance(expr, Diagnostic):
            yield expr
            return
        if expr.source != "response.body":
            yield self.d(where, "XC109", f"items must be read from $response.body, not {expr}")
            return
        yield from self._body_location(operation, expr, where, "XC103", native=native, what="items")
        id_ptr = c.id
        if isinstance(id_ptr, str):
            yield from self._item_pointer(
                operation, expr, id_ptr, pointer_join(at, "id"), "XC104", "id"
            )

    def _item_pointer(
        self,
        operation: Mapping[str, Any],
        items: Expression,
        pointer: str,
        where: str,
        code: str,
        what: str,
    ) -> Iterator[Diagnostic]:
        tokens = _split(pointer)
        if tokens is None:
            yield self.d(
                where,
                "XC108",
                f"{what} {pointer!r} is not a JSON pointer",
                "write a JSON pointer inside one item, e.g. /id",
            )
            return
        if self._lookup_body(operation, items.pointer, success=True) is not Found.FOUND:
            return  # the items are not described (e.g. native envelope): nothing to check
        verdict = self._lookup_body(operation, (*items.pointer, "0", *tokens), success=True)
        if verdict is Found.MISSING:
            yield self.d(
                where,
                code,
                f"{what} {pointer!r} does not exist in the item schema",
                "point at a property every item has",
            )

    def _pagination(
        self,
        c: Contract,
        operation: Mapping[str, Any],
        item: Any,
        at: str,
        native: bool,
    ) -> Iterator[Diagnostic]:
        pg = c.pagination
        codes = c.declared_codes
        pat = pointer_join(at, "pagination")
        if "MORE_PAGES_AVAILABLE" in codes and c.is_listing:
            if (
                pg is None
                or (pg.style in ("cursor", "link-header", "next-url") and not pg.has_next)
                or (pg.style in ("offset", "page") and not (pg.request.offset or pg.request.page))
            ):
                i = c.reason_index("MORE_PAGES_AVAILABLE") or 0
                yield self.d(
                    pointer_join(at, "reasons", i),
                    "XC113",
                    "MORE_PAGES_AVAILABLE needs a way to the next page",
                    "declare pagination with response.next (or {last-item: /id}), or "
                    "request.offset/page for offset and page styles",
                )
        if pg is None:
            return
        if "MORE_PAGES_AVAILABLE" not in codes:
            yield self.d(
                pat,
                "XC114",
                "the listing is paginated but MORE_PAGES_AVAILABLE is not a reason",
                "add MORE_PAGES_AVAILABLE to reasons so a first page is never complete",
            )
        cursor = pg.cursor
        if cursor is not None and cursor.on_expiry == "error" and "CURSOR_EXPIRED" not in codes:
            yield self.d(
                pointer_join(pat, "cursor", "on-expiry"),
                "XC115",
                "on-expiry: error but CURSOR_EXPIRED is not a declared reason",
                "add CURSOR_EXPIRED to reasons (the expiry error carries it)",
            )
        if not native and cursor is not None:
            yield from self._adapter_cursor(cursor, pointer_join(pat, "cursor"))
        params = parameters(self.data, item, operation)
        for key, name in pg.request.to_dict().items():
            if name and not any(n == name and loc in ("query", "header") for loc, n in params):
                yield self.d(
                    pointer_join(pat, "request", key),
                    "XC121",
                    f"request.{key} names {name!r}, which is not a parameter here",
                    "declare the query parameter or fix its name",
                )
        resp = pg.response.to_dict()
        for key in ("next", "total", "pages"):
            raw = resp[key]
            if not raw:
                continue
            where = pointer_join(pat, "response", key)
            expr = self._expr(raw, where, "response")
            if isinstance(expr, Diagnostic):
                yield expr
                continue
            yield from self._response_location(
                operation, expr, where, "XC105", native=native, success=True
            )
            if key == "next" and pg.style == "next-url":
                yield from self._next_url(operation, expr, where)
        last = pg.response.next_last_item
        items = self._expr(c.items or "", pointer_join(at, "items"), "response")
        if last and isinstance(items, Expression) and items.source == "response.body":
            yield from self._item_pointer(
                operation,
                items,
                last,
                pointer_join(pat, "response", "next", "last-item"),
                "XC105",
                "last-item",
            )

    def _next_url(
        self, operation: Mapping[str, Any], expr: Expression, where: str
    ) -> Iterator[Diagnostic]:
        """A next-url walk follows a URL: the body location must be able to hold a string."""
        if expr.source != "response.body":
            return  # the JSON Schema already says next-url reads the body (XC049)
        for schema in response_schemas(self.data, operation, success_only=True):
            types = schema_types_at(self.data, schema, expr.pointer)
            if types and "string" not in types:
                kinds = ", ".join(sorted(types))
                yield self.d(
                    where,
                    "XC140",
                    f"next-url location {expr} is {kinds} in the response schema, not a URL string",
                    "point at the string field that holds the next page's URL "
                    "(e.g. /paging/next/link, not the /paging/next object)",
                )
                return

    def _adapter_cursor(self, cursor: CursorRules, at: str) -> Iterator[Diagnostic]:
        """What an adapter's cursor contract says that no part of x-completeness can enforce.

        The client walk enforces ``filter``, ``ordering`` and ``page-size`` itself (a resumed
        walk with a changed parameter is refused); a native service enforces all of them through
        the generated ``ListingTokens``. For an API we do not run, the rest is documentation.
        """
        for i, name in enumerate(cursor.invalidated_by):
            if name == "authorization" or str(name).startswith("x-"):
                yield self.d(
                    pointer_join(at, "invalidated-by", i),
                    "XC130",
                    f"invalidated-by {name!r} is documentation only in adapter mode",
                    "keep it to document the API, or drop it; only the API can refuse such a "
                    "cursor (the walk reports its refusal as CURSOR_EXPIRED)",
                )
        if cursor.snapshot == "frozen":
            yield self.d(
                pointer_join(at, "snapshot"),
                "XC131",
                "cursor.snapshot: frozen is documentation only in adapter mode",
                "the client cannot verify a foreign API's snapshot; declare what the API "
                "promises, knowing nothing checks it",
            )
        if cursor.ttl_seconds is not None:
            yield self.d(
                pointer_join(at, "ttl"),
                "XC131",
                "cursor.ttl is documentation only in adapter mode",
                "the walk reports an expired cursor when the API says so (map its status to "
                "CURSOR_EXPIRED); it does not time cursors itself",
            )

    def _when(self, c: Contract, operation: Mapping[str, Any], at: str) -> Iterator[Diagnostic]:
        for i, reason in enumerate(c.reasons):
            when = reason.when_raw
            if when is None:
                continue
            where = pointer_join(at, "reasons", i, "when")
            try:
                condition = parse_condition(when)
            except ExpressionError as exc:
                yield self.d(
                    where + exc.pointer,
                    "XC108",
                    f"invalid condition: {exc.message}",
                    "see the condition language in docs/vocabulary.md",
                )
                continue
            for path, expr in condition.expressions():
                here = pointer_join(where, *path)
                if not expr.reads_response:
                    continue
                yield from self._response_location(
                    operation, expr, here, "XC106", native=False, success=False
                )

    def _deadline(
        self, c: Contract, operation: Mapping[str, Any], item: Any, at: str
    ) -> Iterator[Diagnostic]:
        if c.deadline is None or not c.deadline.param:
            return
        name = c.deadline.param
        if ("query", name) not in parameters(self.data, item, operation):
            yield self.d(
                pointer_join(at, "deadline", "param"),
                "XC120",
                f"deadline param {name!r} is not a query parameter of this operation",
                "declare the query parameter that carries the time budget",
            )

    def _mutation(self, c: Contract, operation: Mapping[str, Any], at: str) -> Iterator[Diagnostic]:
        m = c.mutation
        if m is None:
            return
        ev = pointer_join(at, "evidence")
        source = m.from_
        if source:
            target = self.contracts.get(source)
            if target is None and not self._declared(source):
                exists = source in self.ops
                yield self.d(
                    pointer_join(ev, "from"),
                    "XC116",
                    f"evidence from {source!r}: "
                    + (
                        "that operation declares no x-completeness"
                        if exists
                        else "no operation has that operationId"
                    ),
                    "name the listing whose complete result authorises this mutation",
                )
            elif target is None:
                pass  # its declaration is invalid: the vocabulary stage already said so
            elif not target.is_listing or not target.mints_evidence:
                yield self.d(
                    pointer_join(ev, "from"),
                    "XC117",
                    f"{source} does not mint evidence",
                    f"declare evidence: {{mint: true}} on {source}",
                )
        for i, code in enumerate(m.void_on_warnings):
            if self.registry.warning(code) is None:
                yield self.d(
                    pointer_join(ev, "void-on-warnings", i),
                    "XC111",
                    f"unknown warning code {code!r}",
                )
        for key, raw in (("ids", m.ids), ("token", m.token)):
            if not raw:
                continue
            where = pointer_join(ev, key)
            expr = self._expr(raw, where, "request")
            if isinstance(expr, Diagnostic):
                yield expr
                continue
            yield from self._request_location(operation, expr, where)
        each = m.recheck_each_target
        if each:
            target = self.contracts.get(each)
            if (target is None and not self._declared(each)) or (
                target is not None and target.kind != "resource"
            ):
                yield self.d(
                    pointer_join(at, "recheck", "each-target"),
                    "XC118",
                    f"recheck each-target {each!r} is not an operation declared with "
                    "kind: resource",
                    "name the single-read operation of one target",
                )

    # ---------------------------------------------------------------- helpers

    def _declared(self, op_id: str) -> bool:
        """The operation exists and carries a declaration (perhaps an invalid one)."""
        entry = self.ops.get(op_id)
        return entry is not None and "x-completeness" in entry[2]

    def _expr(self, raw: str, where: str, side: str) -> Expression | Diagnostic:
        try:
            expr = parse_expression(raw)
        except ExpressionError as exc:
            return self.d(
                where,
                "XC108",
                f"invalid runtime expression: {exc.message}",
                "see the runtime expressions in docs/vocabulary.md",
            )
        if side == "response" and not expr.reads_response:
            return self.d(
                where, "XC109", f"{expr} reads the request; this place needs a $response expression"
            )
        if side == "request" and expr.reads_response:
            return self.d(
                where, "XC109", f"{expr} reads the response; this place needs a $request expression"
            )
        return expr

    def _lookup_body(
        self, operation: Mapping[str, Any], tokens: tuple[str, ...], *, success: bool
    ) -> Found:
        verdicts = [
            schema_lookup(self.data, schema, tokens)
            for schema in response_schemas(self.data, operation, success_only=success)
        ]
        if not verdicts or Found.FOUND in verdicts:
            return Found.FOUND if verdicts else Found.UNKNOWN
        return Found.UNKNOWN if Found.UNKNOWN in verdicts else Found.MISSING

    def _body_location(
        self,
        operation: Mapping[str, Any],
        expr: Expression,
        where: str,
        code: str,
        *,
        native: bool,
        what: str,
        success: bool = True,
    ) -> Iterator[Diagnostic]:
        tokens = expr.pointer
        if native and tokens and tokens[0] in ENVELOPE_FIELDS:
            head = self._lookup_body(operation, tokens[:1], success=success)
            if head is Found.MISSING:
                return  # an envelope field the spec leaves to the generator
        verdict = self._lookup_body(operation, tokens, success=success)
        if verdict is Found.MISSING:
            yield self.d(
                where,
                code,
                f"{what} location {expr} does not exist in the "
                f"{'success ' if success else ''}response schema",
                "fix the JSON pointer or describe the field in the response schema",
            )

    def _response_location(
        self,
        operation: Mapping[str, Any],
        expr: Expression,
        where: str,
        code: str,
        *,
        native: bool,
        success: bool,
    ) -> Iterator[Diagnostic]:
        if expr.source == "response.body":
            yield from self._body_location(
                operation, expr, where, code, native=native, what="the", success=success
            )
        elif expr.source == "response.header":
            names = response_headers(self.data, operation, success_only=success)
            if str(expr.name).lower() not in names:
                yield self.d(
                    where,
                    code,
                    f"{expr}: no response declares the header {expr.name!r}",
                    "declare the header under the response's headers",
                )
        elif expr.source == "response.link":
            if "link" not in response_headers(self.data, operation, success_only=success):
                yield self.d(
                    where,
                    "XC107",
                    f"{expr}: no response declares a Link header",
                    "declare Link under the success response's headers",
                )

    def _request_location(
        self, operation: Mapping[str, Any], expr: Expression, where: str
    ) -> Iterator[Diagnostic]:
        if expr.source == "request.body":
            verdicts = [
                schema_lookup(self.data, s, expr.pointer)
                for s in request_schemas(self.data, operation)
            ]
            if not verdicts:
                yield self.d(
                    where,
                    "XC122",
                    f"{expr}: the operation has no JSON request body",
                    "declare requestBody with an application/json schema",
                )
            elif Found.FOUND not in verdicts and Found.UNKNOWN not in verdicts:
                yield self.d(
                    where,
                    "XC122",
                    f"{expr} does not exist in the request body schema",
                    "fix the JSON pointer or describe the field in the request body",
                )
        elif expr.source in ("request.query", "request.path"):
            where_in = expr.source.split(".")[1]
            paths = self.data.get("paths")
            path_item = None
            for p, _m, op, _ptr in iter_operations(self.data):
                if op is operation and isinstance(paths, Mapping):
                    path_item = paths.get(p)
            if (where_in, expr.name) not in parameters(self.data, path_item, operation):
                yield self.d(where, "XC122", f"{expr}: no such {where_in} parameter")


def _review_dates(doc: SourceDoc, registry: Any, today: _dt.date) -> Iterator[Diagnostic]:
    for info in getattr(registry, "custom_codes", ()):
        review_by = getattr(info, "review_by", None)
        if review_by is None or review_by >= today:
            continue
        section = "reasons" if registry.reason(info.code) is info else "warnings"
        pointer = pointer_join("", "x-completeness-registry", section, info.code, "review-by")
        yield doc.diag(
            pointer,
            "XC119",
            f"custom code {info.code} was due for review on {review_by.isoformat()}",
            hint="review it with its owner"
            + (f" ({info.owner})" if info.owner else "")
            + ", then move review-by forward or retire the code",
            severity=RULES["XC119"][0],
        )


def _split(pointer: str) -> tuple[str, ...] | None:
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        return None
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))
