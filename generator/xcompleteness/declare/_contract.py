"""Raw ``x-completeness`` declaration -> the typed contract of docs/internals.md, in one pass.

Every later stage (rules, IR, the generated package's ``_contracts.json`` and its runtime) reads
one class, :class:`xcompleteness.runtime.contract.Contract`, so the vocabulary's conveniences are
resolved here and nowhere else: the document's ``x-completeness-defaults`` are merged, kebab-case
keys become snake_case attributes, bare reason codes become :class:`ReasonDecl` carrying the
registry's default continuation and origin, static details move under ``details``, ISO 8601
durations become seconds, ``{last-item: /ptr}`` becomes ``next_last_item``, the vocabulary's
defaults are filled, and every expression, pointer and ``when`` is parsed once.

``normalize`` builds the dataclasses directly from the declaration (no intermediate dict);
``Contract.to_dict()`` is what ``_contracts.json`` holds, and the runtime's
``Contract.from_dict`` (the one loader, inside every generated package) reads it back into an
equal object. It expects a declaration that passed ``validate_declarations``; on anything else it
still returns a contract (best effort: expressions that do not parse are kept as text without a
parsed form, for the rules to report as XC108) rather than raising, because rules may run on a
partially valid document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from xcompleteness.declare._defaults import effective_declaration
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import DECLARATION_KEY, Operation
from xcompleteness.runtime.codes import LISTING_KINDS, NOT_A_LISTING
from xcompleteness.runtime.contract import (
    BODY_LOCATION,
    DEFAULT_ITEMS,
    DEFAULT_NATIVE_NEXT,
    Contract,
    CursorRules,
    Deadline,
    Evidence,
    Mutation,
    Pagination,
    PaginationRequest,
    PaginationResponse,
    ReasonDecl,
    Registry,
    ScopeDecl,
    body_property,
)
from xcompleteness.runtime.expressions import (
    ExpressionError,
    parse_condition,
    parse_expression,
    parse_pointer,
)

__all__ = [
    "DEFAULT_EVIDENCE_TTL_SECONDS",
    "DEFAULT_LINK_NEXT",
    "DEFAULT_NATIVE_ITEMS",
    "OperationRef",
    "duration_seconds",
    "normalize",
    "not_a_listing",
    "operation_ref",
]

_T = TypeVar("_T")

DEFAULT_NATIVE_ITEMS = DEFAULT_ITEMS
"""Where a native service's envelope keeps the items (DESIGN.md section 4)."""
DEFAULT_LINK_NEXT = "$response.link.next"
"""Where a link-header walk finds the next page."""
DEFAULT_EVIDENCE_TTL_SECONDS = 600
"""Evidence lifetime when ``evidence.ttl`` is not given (ten minutes, as in DESIGN.md)."""

_REASON_KEYS = frozenset({"code", "when", "continuation"})
_DURATION = re.compile(
    r"^P(?:(?P<weeks>\d+)W|(?:(?P<days>\d+)D)?"
    r"(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?)$"
)


@dataclass(frozen=True)
class OperationRef:
    """Where a declaration sits: its operation's id, method, path and JSON pointer.

    ``pointer`` is the operation's pointer (``/paths/~1items/get``); the canonical contract's
    ``pointer`` is that of the declaration inside it (``.../get/x-completeness``). A pointer that
    already ends in ``/x-completeness`` is accepted as is.
    """

    operation_id: str | None
    method: str
    path: str
    pointer: str

    @property
    def declaration_pointer(self) -> str:
        if self.pointer.endswith("/" + DECLARATION_KEY):
            return self.pointer
        return pointer_join(self.pointer, DECLARATION_KEY)


def operation_ref(op: Operation) -> OperationRef:
    """The :class:`OperationRef` of one operation view."""
    return OperationRef(
        operation_id=op.operation_id, method=op.method, path=op.path, pointer=op.pointer
    )


def not_a_listing(decl: Any) -> bool:
    """The raw declaration says ``kind: none`` (``runtime.codes.NOT_A_LISTING``): the answer for
    readers that hold no contract yet (the rules on an invalid declaration, generate, the audit);
    a built contract answers it itself (:attr:`Contract.not_a_listing`)."""
    return isinstance(decl, Mapping) and decl.get("kind") == NOT_A_LISTING


def duration_seconds(value: Any) -> int | float | None:
    """ISO 8601 duration (weeks, days, hours, minutes, seconds) -> seconds; None if not one."""
    if not isinstance(value, str):
        return None
    match = _DURATION.match(value)
    if match is None or value in ("P", "PT") or value.endswith("T"):
        return None
    parts = {k: float(v) for k, v in match.groupdict().items() if v is not None}
    total = (
        parts.get("weeks", 0) * 604800
        + parts.get("days", 0) * 86400
        + parts.get("hours", 0) * 3600
        + parts.get("minutes", 0) * 60
        + parts.get("seconds", 0)
    )
    return int(total) if total == int(total) else total


def normalize(
    decl: Mapping[str, Any],
    *,
    op: OperationRef,
    registry: Registry,
    defaults: Mapping[str, Any] | None = None,
) -> Contract:
    """The typed contract (docs/internals.md) of one ``x-completeness`` declaration, in one pass.

    ``defaults`` (the document's ``x-completeness-defaults``) is merged first
    (:func:`effective_declaration`); each reason's default continuation and origin come from
    ``registry`` (:meth:`Registry.continuation_for` / ``origin_for``). Every expression,
    pointer and ``when`` is parsed here as ``Contract.from_dict`` parses it with
    ``strict=False`` (tests/vocab/test_contract.py pins that the two agree field by field).
    """
    decl = effective_declaration(decl, defaults)
    kind: Any = _str(decl.get("kind"))  # None only on a declaration the schema rejects (XC042)
    mode = _str(decl.get("mode")) or "native"
    listing = kind in LISTING_KINDS
    items = _items(decl.get("items"), listing=listing, mode=mode)
    id_text = _str(decl.get("id"))
    omitted = _loc(decl.get("omitted-fields"))
    operation_id: Any = op.operation_id  # None only where XC101 reports it
    return Contract(
        operation_id=operation_id,
        method=op.method,
        path=op.path,
        pointer=op.declaration_pointer,
        kind=kind,
        mode=mode,
        scope=_scope(decl.get("scope")),
        items=items,
        id=id_text,
        pagination=_pagination(decl.get("pagination"), listing=listing, mode=mode),
        reasons=tuple(_reason(r, registry) for r in _list(decl.get("reasons"))),
        warnings=tuple(w for w in _list(decl.get("warnings")) if isinstance(w, str)),
        deadline=_deadline(decl.get("deadline")),
        evidence=None if kind == "mutation" else _listing_evidence(decl.get("evidence")),
        mutation=_mutation(decl) if kind == "mutation" else None,
        omitted_fields=omitted,
        destructive=decl.get("destructive") is True,
        items_expr=_parsed(parse_expression, items),
        id_pointer=_parsed(parse_pointer, id_text),
        omitted_fields_expr=_parsed(parse_expression, omitted),
    )


def _scope(raw: Any) -> ScopeDecl:
    scope = raw if isinstance(raw, Mapping) else {}
    return ScopeDecl(
        resource=_str(scope.get("resource")),
        visibility=_str(scope.get("visibility")),
        snapshot=_str(scope.get("snapshot")) or "none",
        covers=_str(scope.get("covers")),
    )


def _items(raw: Any, *, listing: bool, mode: str) -> str | None:
    if isinstance(raw, str):
        return _loc(raw)
    return DEFAULT_NATIVE_ITEMS if listing and mode == "native" else None


def _pagination(raw: Any, *, listing: bool, mode: str) -> Pagination | None:
    if not listing or not isinstance(raw, Mapping):
        return None
    style = _str(raw.get("style"))
    if style is None:
        return None
    request = _mapping(raw.get("request"))
    if style == "none":
        return _capped(request, raw.get("max-page-size"))
    response = _mapping(raw.get("response"))
    next_raw = response.get("next")
    next_expr = _loc(next_raw)
    last_raw = next_raw.get("last-item") if isinstance(next_raw, Mapping) else None
    last_item = _str(last_raw)
    if next_expr is None and last_raw is None:
        if style == "link-header":
            next_expr = DEFAULT_LINK_NEXT
        elif style == "cursor" and mode == "native":
            next_expr = DEFAULT_NATIVE_NEXT
    total, pages, last = (_loc(response.get(k)) for k in ("total", "pages", "last"))
    max_size = raw.get("max-page-size")
    return Pagination(
        style=style,
        request=_request(request),
        response=PaginationResponse(
            next=next_expr,
            next_last_item=last_item,
            total=total,
            pages=pages,
            last=last,
            next_expr=_parsed(parse_expression, next_expr),
            next_last_item_pointer=_parsed(parse_pointer, last_item),
            total_expr=_parsed(parse_expression, total),
            pages_expr=_parsed(parse_expression, pages),
            last_expr=_parsed(parse_expression, last),
        ),
        max_page_size=(
            max_size if isinstance(max_size, int) and not isinstance(max_size, bool) else None
        ),
        ordering=_str(raw.get("ordering")),
        cursor=_cursor_rules(raw.get("cursor"), numbered=style in ("offset", "page")),
        end=_str(raw.get("end")),
        first_page=_first_page(raw.get("first-page")),
    )


def _capped(request: Mapping[str, Any], max_size: Any) -> Pagination | None:
    """``style: none`` with ``request.size``: one response, capped by the size the walk sends (a
    full answer is RESULT_LIMIT_REACHED); without a size, no pagination at all (``None``)."""
    if _str(request.get("size")) is None:
        return None
    return Pagination(
        style="none",
        request=_request({"size": request.get("size")}),
        response=PaginationResponse(),
        max_page_size=(
            max_size if isinstance(max_size, int) and not isinstance(max_size, bool) else None
        ),
    )


def _first_page(raw: Any) -> int:
    """``first-page`` (a non-negative integer; anything else, reported by the schema, is 1)."""
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return raw
    return 1


def _request(raw: Mapping[str, Any]) -> PaginationRequest:
    """The names the walk writes; a role declared ``$request.body#/NAME`` is the body property
    NAME, listed under ``body`` (a deeper or malformed body location stays as written, for the
    rules to report)."""
    names: dict[str, str | None] = {}
    body: list[str] = []
    for role in ("cursor", "size", "offset", "page"):
        value = _str(raw.get(role))
        if value is not None and value.startswith(BODY_LOCATION):
            value = body_property(value) or value
            body.append(role)
        names[role] = value
    return PaginationRequest(**names, body=tuple(body))


def _cursor_rules(raw: Any, *, numbered: bool = False) -> CursorRules | None:
    """The cursor contract; for offset and page styles (a client continuation, no server
    cursor to expire) only ``snapshot`` and ``invalidated-by`` apply, so no expiry default."""
    if not isinstance(raw, Mapping):
        return None
    return CursorRules(
        snapshot=_str(raw.get("snapshot")) or "live",
        ttl_seconds=duration_seconds(raw.get("ttl")),
        invalidated_by=tuple(v for v in _list(raw.get("invalidated-by")) if isinstance(v, str)),
        on_expiry=_str(raw.get("on-expiry")) or (None if numbered else "error"),
    )


def _reason(raw: Any, registry: Registry) -> ReasonDecl:
    if isinstance(raw, Mapping):
        code = _str(raw.get("code")) or ""
        when = raw.get("when")
        override = _str(raw.get("continuation"))
        details = {
            str(k): v
            for k, v in raw.items()
            if k not in _REASON_KEYS and not str(k).startswith("x-")
        }
    else:
        code, when, override, details = str(raw), None, None, {}
    return ReasonDecl(
        code=code,
        when=None if when is None else _parsed(parse_condition, when),
        details=details,
        continuation=override or registry.continuation_for(code),
        origin=registry.origin_for(code),
        when_raw=when,
    )


def _deadline(raw: Any) -> Deadline | None:
    if not isinstance(raw, Mapping):
        return None
    return Deadline(
        param=_str(raw.get("param")),
        unit=_str(raw.get("unit")) or "ms",
        default=_num(raw.get("default")),
        max=_num(raw.get("max")),
    )


def _listing_evidence(raw: Any) -> Evidence | None:
    if not isinstance(raw, Mapping):
        return None
    mint = raw.get("mint") is True
    ttl = duration_seconds(raw.get("ttl"))
    if mint and ttl is None:
        ttl = DEFAULT_EVIDENCE_TTL_SECONDS
    accept = tuple(c for c in _list(raw.get("accept")) if isinstance(c, str))
    return Evidence(mint=mint, ttl_seconds=ttl, accept=accept)


def _mutation(decl: Mapping[str, Any]) -> Mutation:
    evidence = _mapping(decl.get("evidence"))
    recheck = _mapping(decl.get("recheck"))
    ids, token = _loc(evidence.get("ids")), _loc(evidence.get("token"))
    return Mutation(
        from_=_str(evidence.get("from")),
        ids=ids,
        token=token,
        void_on_warnings=tuple(
            w for w in _list(evidence.get("void-on-warnings")) if isinstance(w, str)
        ),
        recheck_each_target=_str(recheck.get("each-target")),
        ids_expr=_parsed(parse_expression, ids),
        token_expr=_parsed(parse_expression, token),
    )


def _parsed(parse: Callable[[Any], _T], text: Any) -> _T | None:
    """``parse(text)``, or None when there is no text or it does not parse (the rules report it
    as XC108): what ``Contract.from_dict(..., strict=False)`` keeps beside the text."""
    if text is None:
        return None
    try:
        return parse(text)
    except ExpressionError:
        return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _loc(value: Any) -> str | None:
    """A location expression in one spelling: ``$response.body`` becomes ``$response.body#``."""
    if value in ("$response.body", "$request.body"):
        return f"{value}#"
    return _str(value)


def _num(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []
