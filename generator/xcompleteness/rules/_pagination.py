"""Pagination and cursor-contract rules: a way to the next page (XC113, XC114), the response
locations (XC105) and next-url strings (XC140), request parameters (XC121), on-expiry (XC115),
what an adapter's cursor contract can only document (XC130, XC131), and the end of an adapter
walk (XC141 no end signal, XC142 a short-page end without a page size, XC143 a last-page field
that is not a boolean), a total or page count that is not a number (XC154), a role paged
in the request body (XC146: the body schema must have the property), a first page number
the page parameter refuses (XC147), and an unpaged listing capped by its size parameter
without max-page-size (XC148) or RESULT_LIMIT_REACHED (XC149), and an adapter
RESULT_LIMIT_REACHED without when, which no walk reports (XC153), and a max-page-size above
the size parameter's own schema maximum where the walk sends it (XC152).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.document import Operation, deref_mapping, overlay_target, resolve_pointer
from xcompleteness.rules._context import RuleContext
from xcompleteness.rules._locations import Found, schema_lookup, schema_types_at
from xcompleteness.runtime.contract import Contract, CursorRules, Pagination
from xcompleteness.runtime.expressions import Expression

__all__ = ["PaginationRules"]


class PaginationRules(RuleContext):
    def _pagination(
        self,
        c: Contract,
        operation: Operation,
        at: str,
        native: bool,
    ) -> Iterator[Diagnostic]:
        pg = c.pagination
        codes = c.declared_codes
        pat = pointer_join(at, "pagination")
        if "MORE_PAGES_AVAILABLE" in codes and c.is_listing:
            if (
                pg is None
                or not pg.paged
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
        yield from self._silent_cap(c, at, native)
        if pg is None:
            return
        if not pg.paged:  # style none capped by its size parameter: one response, no position
            yield from self._request_names(operation, pg, pat)
            yield from self._size_cap(c, pg, pat)
            yield from self._cap_above_maximum(operation, pg, pat)
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
        yield from self._request_names(operation, pg, pat)
        if not native:
            yield from self._end_signal(c, pat)
        if pg.end == "short-page":
            yield from self._cap_above_maximum(operation, pg, pat)
        if pg.style == "page" and pg.request.page and "page" not in pg.request.body:
            yield from self._first_page(operation, pg.request.page, pg.first_page, pat)
        resp = pg.response.to_dict()
        for key in ("next", "total", "pages", "last"):
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
            if key == "last":
                yield from self._last_flag(operation, expr, where)
            if key in ("total", "pages"):
                yield from self._count(operation, expr, where, key)
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

    def _request_names(
        self, operation: Operation, pg: Pagination, pat: str
    ) -> Iterator[Diagnostic]:
        """XC121 (a query or header parameter) and XC146 (a body property): every name the
        walk writes exists."""
        params = [(p.location, p.name) for p in operation.parameters]
        for key, name in pg.request.to_dict().items():
            if name and key in pg.request.body:
                yield from self._body_paging(
                    operation, key, name, pointer_join(pat, "request", key)
                )
            elif name and not any(n == name and loc in ("query", "header") for loc, n in params):
                yield self.d(
                    pointer_join(pat, "request", key),
                    "XC121",
                    f"request.{key} names {name!r}, which is not a parameter here",
                    "declare it as a query or header parameter of the operation, or fix the name",
                )

    def _silent_cap(self, c: Contract, at: str, native: bool) -> Iterator[Diagnostic]:
        """XC153: an adapter listing's RESULT_LIMIT_REACHED without ``when`` is never reported
        (the client computes every adapter reason from a signal), unless a size parameter caps
        an unpaged answer (``style: none`` with ``request.size``), or a paged walk has a
        numeric ``limit`` and a declared total: the walk stops at the limit and reports it,
        and where the API ends its listing at the cap, the total shows the shortfall. A paged
        ``limit`` without a total is still warned about: an API that ends its listing at the
        cap (no next link after item 1,000) would read ``complete: true``."""
        decl = c.reason("RESULT_LIMIT_REACHED")
        pg = c.pagination
        if native or not c.is_listing or decl is None or decl.when_raw is not None:
            return
        if pg is not None and pg.capped:
            return
        limit = pg is not None and pg.paged and _count_limit(decl.details.get("limit"))
        if limit and pg is not None and pg.response.total is not None:
            return  # the walk stops at the limit, and a total shows an API that ends there
        unpaged = pg is None or not pg.paged
        if unpaged:
            hint = (
                "if a size parameter caps the one answer, declare pagination {style: none, "
                "request: {size: NAME}, max-page-size: N}; else add a when on the signal that "
                "shows the cap"
            )
        elif limit:
            hint = "declare response.total, or a when on the signal that shows the cap"
        else:
            hint = "add a when on the signal that shows the cap (e.g. a total above it)"
        message = (
            "RESULT_LIMIT_REACHED has a limit but no when and the listing no total: the walk "
            "reports it only when the API still offers more at the limit, so a listing the API "
            "ends at the cap reads complete"
            if limit
            else "RESULT_LIMIT_REACHED has no when, so an adapter walk never reports it: an "
            "answer stopped at the cap reads complete"
        )
        yield self.d(
            pointer_join(at, "reasons", c.reason_index("RESULT_LIMIT_REACHED") or 0),
            "XC153",
            message,
            hint,
        )

    def _size_cap(self, c: Contract, pg: Pagination, at: str) -> Iterator[Diagnostic]:
        """An unpaged listing capped by its size parameter (``style: none`` with
        ``request.size``): the walk sends the size itself, so it must know the most the API
        serves (XC148), and a full answer reads RESULT_LIMIT_REACHED, which the listing must be
        able to report (XC149)."""
        if pg.max_page_size is None:
            yield self.d(
                at,
                "XC148",
                f"style none with request.size {pg.request.size!r} needs max-page-size",
                "declare max-page-size: the most items one answer holds (the parameter's "
                "maximum); the walk sends the caller's size up to it, else it, and reads a "
                "full answer as RESULT_LIMIT_REACHED",
            )
        if "RESULT_LIMIT_REACHED" not in c.declared_codes:
            yield self.d(
                pointer_join(at, "request", "size"),
                "XC149",
                "an unpaged listing capped by its size parameter cannot report "
                "RESULT_LIMIT_REACHED",
                "add RESULT_LIMIT_REACHED to reasons, so an answer holding as many items as "
                "were asked for never reads complete",
            )

    def _cap_above_maximum(
        self, operation: Operation, pg: Pagination, at: str
    ) -> Iterator[Diagnostic]:
        """XC152: where the walk sends the size itself and reads a full answer against
        max-page-size (a capped unpaged listing, ``end: short-page``), a max-page-size above the
        size parameter's schema ``maximum`` asks for more than the API serves: an API that
        clamps silently answers its maximum, which is short of max-page-size and reads
        complete (or the last page); one that refuses fails every call the caller does not
        size."""
        name, cap = pg.request.size, pg.max_page_size
        if not name or cap is None:
            return
        if "size" in pg.request.body:
            schemas = [
                _properties(self.data, s.schema).get(name) for s in operation.request_schemas()
            ]
            where = f"the request body property {name!r}"
        else:
            schemas = [
                p.schema.schema
                for p in operation.parameters
                if p.name == name and p.location in ("query", "header") and p.schema is not None
            ]
            where = f"the parameter {name!r}"
        bounds = [_schema_most(self.data, s) for s in schemas]
        most = min((m for m in bounds if m is not None), default=None)
        if most is None or cap <= most:
            return
        yield self.d(
            pointer_join(at, "max-page-size"),
            "XC152",
            f"max-page-size {cap} is above the maximum {most} of {where}: an API that clamps "
            f"silently answers at most {most} items, which reads "
            + ("complete" if pg.capped else "as the last page"),
            f"set max-page-size to {most} (the most the API serves), or fix the schema's "
            "maximum if the API serves more",
        )

    def _first_page(
        self, operation: Operation, name: str, first: int, at: str
    ) -> Iterator[Diagnostic]:
        """XC147: the walk starts at ``first-page`` (1 unless declared); a page parameter whose
        schema's ``minimum`` is above it would refuse the walk's very first request (a 0-based
        page declared on a parameter with ``minimum: 1``). The finding points at ``first-page``
        when it is written, else at the parameter's ``minimum`` (the default 1 is written
        nowhere)."""
        for param in operation.parameters:
            if param.name != name or param.location not in ("query", "header"):
                continue
            schema = param.schema.schema if param.schema is not None else None
            least = schema.get("minimum") if isinstance(schema, dict) else None
            if not isinstance(least, (int, float)) or isinstance(least, bool) or first >= least:
                return
            written, pagination = resolve_pointer(self.data, at)
            if written and isinstance(pagination, dict) and "first-page" in pagination:
                where = pointer_join(at, "first-page")
                said = f"first-page is {first}"
                fix = (
                    "remove first-page (it defaults to 1) if pages are numbered from 1"
                    if least == 1
                    else f"first-page takes 0 or 1: fix the minimum if the API takes page {first}"
                )
            else:
                where = _minimum_pointer(self.data, param.pointer)
                said = "first-page is not declared and defaults to 1"
                fix = (
                    "first-page defaults to 1 (and takes 0 or 1): fix the minimum if the API "
                    "takes page 1"
                )
            yield self.d(
                where,
                "XC147",
                f"{said}, but the page parameter {name!r} has minimum {least:g}: the walk's "
                "first request would be refused",
                fix if least > 1 else f"{fix}, or fix the parameter's minimum",
            )
            return

    def _body_paging(
        self, operation: Operation, role: str, name: str, where: str
    ) -> Iterator[Diagnostic]:
        """XC146: a role paged in the request body (``$request.body#/NAME``) needs a JSON
        request body whose schema has the top-level property NAME."""
        schemas = operation.request_schemas()
        if not schemas:
            yield self.d(
                where,
                "XC146",
                f"request.{role} is the body property {name!r}, but the operation has no JSON "
                "request body",
                "declare requestBody with an application/json object schema that has the "
                f"property {name!r}, or name a query parameter",
            )
            return
        verdicts = [schema_lookup(self.data, s.raw, (name,)) for s in schemas]
        if Found.FOUND in verdicts or Found.UNKNOWN in verdicts:
            return
        target = _jsonpath(schemas[0].target or schemas[0].pointer)
        kind = "string" if role == "cursor" else "integer"
        yield self.d(
            where,
            "XC146",
            f"request.{role} is the body property {name!r}, which the JSON request body schema "
            "does not have",
            f'fix the name, or describe the property: the overlay action {{target: "{target}", '
            f'update: {{properties: {{"{name}": {{"type": "{kind}"}}}}}}}} adds it',
        )

    def _end_signal(self, c: Contract, at: str) -> Iterator[Diagnostic]:
        """An adapter walk must know where the listing ends (XC141); a short page is short only
        against a page size the walk sends itself (XC142)."""
        pg = c.pagination
        assert pg is not None
        more = c.reason("MORE_PAGES_AVAILABLE")
        signals = (
            (more is not None and more.when_raw is not None)
            or pg.response.last is not None
            or pg.end is not None
            or (pg.style == "offset" and pg.response.total is not None)
            or (pg.style == "page" and (pg.response.total or pg.response.pages) is not None)
        )
        if pg.style in ("offset", "page") and not signals:
            yield self.d(
                at,
                "XC141",
                f"an adapter {pg.style} walk has no end signal: no total, pages or last-page "
                "field, and no end rule",
                "declare response.total (or pages), response.last (a boolean such as isLast), "
                "or, when the API's only end is an empty page, end: empty-page",
            )
        if pg.end == "short-page" and not (pg.request.size and pg.max_page_size):
            yield self.d(
                pointer_join(at, "end"),
                "XC142",
                "end: short-page needs request.size and max-page-size",
                "declare the size parameter and the page size the API honours, or use "
                "end: empty-page",
            )

    def _last_flag(
        self, operation: Operation, expr: Expression, where: str
    ) -> Iterator[Diagnostic]:
        """``response.last`` is a boolean: a body location typed otherwise is a wrong field."""
        if expr.source != "response.body":
            return
        for schema in operation.response_schemas(success_only=True):
            types = schema_types_at(self.data, schema.raw, expr.pointer)
            if types and "boolean" not in types:
                kinds = ", ".join(sorted(types))
                yield self.d(
                    where,
                    "XC143",
                    f"response.last {expr} is {kinds} in the response schema, not a boolean",
                    "point at the boolean that is true on the last page (e.g. /isLast)",
                )
                return

    def _count(
        self, operation: Operation, expr: Expression, where: str, key: str
    ) -> Iterator[Diagnostic]:
        """XC154: ``response.total`` and ``response.pages`` are counts, so a body location must
        be able to hold a number (a header is text on the wire and is read as a number)."""
        if expr.source != "response.body":
            return
        for schema in operation.response_schemas(success_only=True):
            types = schema_types_at(self.data, schema.raw, expr.pointer)
            if types and not types & {"integer", "number"}:
                kinds = ", ".join(sorted(types))
                what = "items" if key == "total" else "pages"
                yield self.d(
                    where,
                    "XC154",
                    f"response.{key} {expr} is {kinds} in the response schema, not a number",
                    f"point at the integer that counts the listing's {what} "
                    f"(e.g. /meta/{'total' if key == 'total' else 'totalPages'}), not the object "
                    "or text around it; the walk reads any other value as a CONTRACT_VIOLATION",
                )
                return

    def _next_url(self, operation: Operation, expr: Expression, where: str) -> Iterator[Diagnostic]:
        """A next-url walk follows a URL: the body location must be able to hold a string."""
        if expr.source != "response.body":
            return  # the JSON Schema already says next-url reads the body (XC049)
        for schema in operation.response_schemas(success_only=True):
            types = schema_types_at(self.data, schema.raw, expr.pointer)
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
                "promises, knowing the walk checks only that no declared id comes twice "
                "(DUPLICATE_ITEMS)",
            )
        if cursor.ttl_seconds is not None:
            yield self.d(
                pointer_join(at, "ttl"),
                "XC131",
                "cursor.ttl is documentation only in adapter mode",
                "the walk reports an expired cursor when the API says so (map its status to "
                "CURSOR_EXPIRED); it does not time cursors itself",
            )


def _jsonpath(pointer: str) -> str:
    """An RFC 9535 path of name selectors for a JSON pointer (the request body schema's place:
    no array index on the way)."""
    return overlay_target(pointer)


def _properties(data: object, schema: object) -> Mapping[str, Any]:
    """The ``properties`` of an object schema (through a local ``$ref``), else none."""
    props = deref_mapping(data, schema).get("properties")
    return props if isinstance(props, Mapping) else {}


def _schema_most(data: object, schema: object, depth: int = 0) -> int | None:
    """The largest whole number a schema admits: ``maximum``, or below an
    ``exclusiveMaximum`` (a number in OpenAPI 3.1, a flag beside ``maximum`` in 3.0); the
    smallest of the members of an ``allOf``. None when nothing bounds it."""
    schema = deref_mapping(data, schema)
    bounds: list[int] = []
    most, exclusive = schema.get("maximum"), schema.get("exclusiveMaximum")
    if _number(most):
        bounds.append(math.ceil(most) - 1 if exclusive is True else math.floor(most))
    if _number(exclusive):
        bounds.append(math.ceil(exclusive) - 1)
    members = schema.get("allOf")
    for member in members if isinstance(members, list) and depth < 8 else ():
        inner = _schema_most(data, member, depth + 1)
        if inner is not None:
            bounds.append(inner)
    return min(bounds, default=None)


def _count_limit(value: object) -> bool:
    """A cap the walk can compare with: a positive whole number (as ``_Plan.cap``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _minimum_pointer(data: object, parameter: str) -> str:
    """Where the ``minimum`` of the parameter listed at ``parameter`` is written: through the
    local ``$ref`` of the parameter (a component) and of its schema."""

    def follow(at: str) -> str:
        for _ in range(16):  # a chain of local references, bounded (cycles end here)
            found, node = resolve_pointer(data, at)
            ref = node.get("$ref") if found and isinstance(node, dict) else None
            if not isinstance(ref, str) or not ref.startswith("#/"):
                break
            at = unquote(ref[1:])
        return at

    return pointer_join(follow(pointer_join(follow(parameter), "schema")), "minimum")
