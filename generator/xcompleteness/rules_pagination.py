"""Pagination and cursor-contract rules: a way to the next page (XC113, XC114), the response
locations (XC105) and next-url strings (XC140), request parameters (XC121), on-expiry (XC115)
and what an adapter's cursor contract can only document (XC130, XC131).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from xcompleteness.diagnostics import Diagnostic, pointer_join
from xcompleteness.rules_catalog import _LISTING
from xcompleteness.rules_context import _RuleContext
from xcompleteness.rules_locations import parameters, response_schemas, schema_types_at
from xcompleteness.runtime.expressions import Expression


class _PaginationRules(_RuleContext):
    def _pagination(
        self,
        c: Mapping[str, Any],
        operation: Mapping[str, Any],
        item: Any,
        at: str,
        native: bool,
    ) -> Iterator[Diagnostic]:
        pg = c.get("pagination")
        codes = {r.get("code") for r in c.get("reasons") or ()}
        pat = pointer_join(at, "pagination")
        if "MORE_PAGES_AVAILABLE" in codes and c.get("kind") in _LISTING:
            style = pg.get("style") if pg else None
            resp = pg.get("response") if pg else {}
            has_next = bool(resp.get("next") or resp.get("next_last_item"))
            req = pg.get("request") if pg else {}
            if (
                pg is None
                or (style in ("cursor", "link-header", "next-url") and not has_next)
                or (style in ("offset", "page") and not (req.get("offset") or req.get("page")))
            ):
                i = _index_of(c, "MORE_PAGES_AVAILABLE")
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
        cursor = pg.get("cursor") or {}
        if cursor.get("on_expiry") == "error" and "CURSOR_EXPIRED" not in codes:
            yield self.d(
                pointer_join(pat, "cursor", "on-expiry"),
                "XC115",
                "on-expiry: error but CURSOR_EXPIRED is not a declared reason",
                "add CURSOR_EXPIRED to reasons (the expiry error carries it)",
            )
        if not native and cursor:
            yield from self._adapter_cursor(cursor, pointer_join(pat, "cursor"))
        params = parameters(self.data, item, operation)
        for key, name in (pg.get("request") or {}).items():
            if name and not any(n == name and loc in ("query", "header") for loc, n in params):
                yield self.d(
                    pointer_join(pat, "request", key),
                    "XC121",
                    f"request.{key} names {name!r}, which is not a parameter here",
                    "declare the query parameter or fix its name",
                )
        resp = pg.get("response") or {}
        for key in ("next", "total", "pages"):
            raw = resp.get(key)
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
            if key == "next" and pg.get("style") == "next-url":
                yield from self._next_url(operation, expr, where)
        last = resp.get("next_last_item")
        items = self._expr(c.get("items") or "", pointer_join(at, "items"), "response")
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

    def _adapter_cursor(self, cursor: Mapping[str, Any], at: str) -> Iterator[Diagnostic]:
        """What an adapter's cursor contract says that no part of x-completeness can enforce.

        The client walk enforces ``filter``, ``ordering`` and ``page-size`` itself (a resumed
        walk with a changed parameter is refused); a native service enforces all of them through
        the generated ``ListingTokens``. For an API we do not run, the rest is documentation.
        """
        for i, name in enumerate(cursor.get("invalidated_by") or ()):
            if name == "authorization" or str(name).startswith("x-"):
                yield self.d(
                    pointer_join(at, "invalidated-by", i),
                    "XC130",
                    f"invalidated-by {name!r} is documentation only in adapter mode",
                    "keep it to document the API, or drop it; only the API can refuse such a "
                    "cursor (the walk reports its refusal as CURSOR_EXPIRED)",
                )
        if cursor.get("snapshot") == "frozen":
            yield self.d(
                pointer_join(at, "snapshot"),
                "XC131",
                "cursor.snapshot: frozen is documentation only in adapter mode",
                "the client cannot verify a foreign API's snapshot; declare what the API "
                "promises, knowing nothing checks it",
            )
        if cursor.get("ttl_seconds") is not None:
            yield self.d(
                pointer_join(at, "ttl"),
                "XC131",
                "cursor.ttl is documentation only in adapter mode",
                "the walk reports an expired cursor when the API says so (map its status to "
                "CURSOR_EXPIRED); it does not time cursors itself",
            )


def _index_of(c: Mapping[str, Any], code: str) -> int:
    for i, reason in enumerate(c.get("reasons") or ()):
        if reason.get("code") == code:
            return i
    return 0
