"""The canonical contract as frozen dataclasses, read from a package's ``_contracts.json``.

The generator builds each :class:`Contract` directly from its ``x-completeness`` declaration
(``xcompleteness.declare.normalize``) and writes ``_contracts.json`` from :meth:`Contract.to_dict`
(docs/internals.md). The runtime reads it back through :meth:`Contract.from_dict`, the one
loader, which checks the shape once and parses every expression and ``when`` condition up front
so a page costs no parsing. Attribute names equal the canonical keys (raw expression text is kept
under the same name, the parsed form beside it as ``*_expr``), so code that reads the dict with
``obj.get(key)`` or ``getattr(obj, key)`` works on either form. ``mutation.from`` is spelled
``from_`` here (``from`` is a Python keyword).

The JSON is data a package ships, possibly edited by hand; anything malformed raises
:class:`ContractError` naming the JSON path, never a bare ``KeyError``.

:meth:`Contract.to_dict` is the exact inverse of ``from_dict`` on canonical dicts (every key
present, in the documented order), and ``from_dict(c.to_dict(), strict=False)`` equals the
generator's contract ``c``, parsed forms included. ``strict=False`` keeps an expression or
``when`` that does not parse as text with no parsed form (the rules report it as XC108) instead
of raising.

The codes are one :class:`Registry` for the generator and the runtime: the generator builds it
from ``spec_ext/codes.json`` and the document's ``x-completeness-registry`` and writes the codes
a package uses with :meth:`Registry.to_dict`; the runtime reads them back with
:meth:`Registry.from_dict`. A reason's continuation and origin are worked out there alone
(``continuation_for``, ``origin_for``): ``normalize`` fills each declared reason from the
document's registry, and :meth:`Contract.continuation_of` answers for codes the declaration does
not list (the client's own codes) from the standard one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from datetime import date
from pathlib import Path
from typing import Any

from .codes import (
    CLIENT_CODES,
    CLIENT_WARNING_CODES,
    CONTINUATION_KINDS,
    LISTING_KINDS,
    NOT_A_LISTING,
    STANDARD_CONTINUATIONS,
    STANDARD_ORIGINS,
    WARNING_ORIGINS,
)
from .expressions import (
    Condition,
    Expression,
    ExpressionError,
    parse_condition,
    parse_expression,
    parse_pointer,
)
from .records import record

__all__ = [
    "CLIENT_CODES",
    "DEFAULT_ITEMS",
    "DEFAULT_NATIVE_NEXT",
    "CLIENT_WARNING_CODES",
    "STANDARD_CONTINUATIONS",
    "STANDARD_ORIGINS",
    "CodeEntry",
    "Contract",
    "ContractError",
    "ContractMap",
    "as_contract",
    "CursorRules",
    "Deadline",
    "Evidence",
    "Mutation",
    "Pagination",
    "PaginationRequest",
    "BODY_LOCATION",
    "body_property",
    "PaginationResponse",
    "ReasonDecl",
    "STANDARD_REGISTRY",
    "Registry",
    "ScopeDecl",
    "contracts_from_document",
    "load_contracts",
]

DEFAULT_ITEMS = "$response.body#/items"
"""Where the items are read when a contract names no location (a native envelope's ``items``)."""
DEFAULT_NATIVE_NEXT = "$response.body#/next_cursor"
"""Where a native service's envelope keeps the next cursor."""


class ContractError(ValueError):
    """A canonical contract or registry that does not have the documented shape, or one that
    cannot drive a walk (``runtime/walk.py``: no terminal signal, a bad expression)."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.message = message
        self.path = path


# ------------------------------------------------------------------------------------------
# small typed readers


class _Reader:
    """Typed access to one JSON object with the path used in error messages."""

    def __init__(self, data: Any, path: str, strict: bool = True) -> None:
        if not isinstance(data, Mapping):
            raise ContractError("expected an object", path)
        self.data = data
        self.path = path
        self.strict = strict

    def at(self, key: str) -> str:
        return f"{self.path}/{key}"

    def opt(self, key: str, types: type | tuple[type, ...]) -> Any:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) and bool not in _as_tuple(types):
            raise ContractError(f"expected {_names(types)}, got a boolean", self.at(key))
        if not isinstance(value, types):
            raise ContractError(f"expected {_names(types)}", self.at(key))
        return value

    def req(self, key: str, types: type | tuple[type, ...]) -> Any:
        value = self.opt(key, types)
        if value is None and self.strict:
            raise ContractError("is required", self.at(key))
        return value

    def str_list(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ContractError("expected a list of strings", self.at(key))
        return tuple(value)

    def expr(self, key: str) -> tuple[str | None, Expression | None]:
        text = self.opt(key, str)
        if text is None:
            return None, None
        try:
            return text, parse_expression(text)
        except ExpressionError as exc:
            if not self.strict:
                return text, None
            raise ContractError(exc.message, self.at(key)) from None

    def pointer(self, key: str) -> tuple[str | None, tuple[str, ...] | None]:
        text = self.opt(key, str)
        if text is None:
            return None, None
        try:
            return text, parse_pointer(text)
        except ExpressionError as exc:
            if not self.strict:
                return text, None
            raise ContractError(exc.message, self.at(key)) from None

    def sub(self, key: str) -> _Reader | None:
        value = self.data.get(key)
        return None if value is None else _Reader(value, self.at(key), self.strict)


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _names(types: type | tuple[type, ...]) -> str:
    return " or ".join(t.__name__ for t in _as_tuple(types))


_NUMBER = (int, float)


# ------------------------------------------------------------------------------------------
# the contract


@record(frozen=True)
class ScopeDecl:
    """What "complete" covers: the resource, visibility rule, snapshot kind and coverage text."""

    resource: str | None = None
    visibility: str | None = None
    snapshot: str | None = None  # none | request | token
    covers: str | None = None

    @classmethod
    def from_reader(cls, r: _Reader) -> ScopeDecl:
        return cls(
            resource=r.opt("resource", str),
            visibility=r.opt("visibility", str),
            snapshot=r.opt("snapshot", str),
            covers=r.opt("covers", str),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "resource": self.resource,
            "visibility": self.visibility,
            "snapshot": self.snapshot,
            "covers": self.covers,
        }

    def declared(self) -> dict[str, str]:
        """The keys that are set (what a result's ``scope`` carries)."""
        return {k: v for k, v in self.to_dict().items() if v is not None}


BODY_LOCATION = "$request.body#/"
"""How ``pagination.request`` places a role in the JSON request body: ``$request.body#/NAME``."""


def body_property(value: Any) -> str | None:
    """``$request.body#/marker`` -> ``marker`` (a top-level property of the JSON request body);
    None for anything else (a query parameter name, a deeper or malformed pointer)."""
    if not isinstance(value, str) or not value.startswith(BODY_LOCATION):
        return None
    try:
        tokens = parse_pointer(value[len(BODY_LOCATION) - 1 :])
    except ExpressionError:
        return None
    return tokens[0] if len(tokens) == 1 and tokens[0] else None


@record(frozen=True)
class PaginationRequest:
    """Names the walk writes (cursor, page size, offset, page number): query parameters, or, for
    the roles listed in ``body``, top-level properties of the JSON request body (a POST search
    paged by ``marker`` in its body: ``request: {cursor: $request.body#/marker}``)."""

    cursor: str | None = None
    size: str | None = None
    offset: str | None = None
    page: str | None = None
    body: tuple[str, ...] = ()  # roles (cursor, size, offset, page) whose name is a body property

    def to_dict(self) -> dict[str, Any]:
        """The four names (the body roles are :attr:`body`; :meth:`Pagination.to_dict` adds
        them beside)."""
        return {"cursor": self.cursor, "size": self.size, "offset": self.offset, "page": self.page}

    @property
    def body_names(self) -> frozenset[str]:
        """The body properties the walk writes itself (empty for a query-paged listing)."""
        names = self.to_dict()
        return frozenset(str(names[r]) for r in self.body if names.get(r))


@record(frozen=True)
class PaginationResponse:
    """Where the next cursor/link, a last-item cursor, the total or the page count are read."""

    next: str | None = None
    next_last_item: str | None = None
    total: str | None = None
    pages: str | None = None
    last: str | None = None  # a boolean the API sets on the last page (Jira's ``isLast``)
    next_expr: Expression | None = field(default=None, compare=False, repr=False)
    next_last_item_pointer: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    total_expr: Expression | None = field(default=None, compare=False, repr=False)
    pages_expr: Expression | None = field(default=None, compare=False, repr=False)
    last_expr: Expression | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "next": self.next,
            "next_last_item": self.next_last_item,
            "total": self.total,
            "pages": self.pages,
            "last": self.last,
        }


@record(frozen=True)
class CursorRules:
    """The cursor contract: snapshot kind, lifetime, what invalidates it, what expiry means."""

    snapshot: str | None = None  # frozen | live
    ttl_seconds: float | None = None
    invalidated_by: tuple[str, ...] = ()
    on_expiry: str | None = None  # error | restart-required

    def to_dict(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "ttl_seconds": self.ttl_seconds,
            "invalidated_by": list(self.invalidated_by),
            "on_expiry": self.on_expiry,
        }


@record(frozen=True)
class Pagination:
    style: str
    request: PaginationRequest
    response: PaginationResponse
    max_page_size: int | None = None
    ordering: str | None = None
    cursor: CursorRules | None = None
    end: str | None = None  # empty-page | short-page: an end the walk infers (END_INFERRED)
    first_page: int = 1  # style page: the number of the first page (``first-page``; 0 or 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "style": self.style,
            "request": {
                **self.request.to_dict(),
                **({"body": list(self.request.body)} if self.request.body else {}),
            },
            "response": self.response.to_dict(),
            "max_page_size": self.max_page_size,
            "ordering": self.ordering,
            "cursor": None if self.cursor is None else self.cursor.to_dict(),
            "end": self.end,
            **({"first_page": self.first_page} if self.first_page != 1 else {}),
        }

    @property
    def paged(self) -> bool:
        """The walk may read more than one page: every style but ``none``."""
        return self.style != "none"

    @property
    def capped(self) -> bool:
        """``style: none`` with ``request.size``: one response, as long as the size the walk
        sends at most; a full one may hide more (RESULT_LIMIT_REACHED, docs/vocabulary.md)."""
        return self.style == "none" and self.request.size is not None

    @property
    def has_next(self) -> bool:
        """The response names where the next cursor or link is (or a last-item cursor)."""
        return bool(self.response.next or self.response.next_last_item)


@record(frozen=True)
class ReasonDecl:
    """One code an incomplete result of the operation may carry, with its parsed ``when``."""

    code: str
    when: Condition | None
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    continuation: str = "none"
    origin: str = "server"
    when_raw: Any = field(default=None, compare=False, repr=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "when": self.when_raw,
            "details": dict(self.details),
            "continuation": self.continuation,
            "origin": self.origin,
        }


@record(frozen=True)
class Deadline:
    param: str | None = None
    unit: str = "ms"
    default: float | None = None
    max: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"param": self.param, "unit": self.unit, "default": self.default, "max": self.max}


@record(frozen=True)
class Evidence:
    mint: bool = False
    ttl_seconds: float | None = None
    accept: tuple[str, ...] = ()
    """Client doubts (END_INFERRED, ITEMS_SEEN_TWICE, DUPLICATE_CHECK_STOPPED) a complete result
    may carry and still mint evidence; by default each withholds it (EVIDENCE_WITHHELD)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mint": self.mint, "ttl_seconds": self.ttl_seconds}
        if self.accept:
            out["accept"] = list(self.accept)
        return out


@record(frozen=True)
class Mutation:
    """How a mutation proves it acts on a complete listing (or re-checks each target)."""

    from_: str | None
    ids: str | None
    token: str | None
    void_on_warnings: tuple[str, ...] = ()
    recheck_each_target: str | None = None
    ids_expr: Expression | None = field(default=None, compare=False, repr=False)
    token_expr: Expression | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.from_,
            "ids": self.ids,
            "token": self.token,
            "void_on_warnings": list(self.void_on_warnings),
            "recheck_each_target": self.recheck_each_target,
        }


@record(frozen=True)
class Contract:
    """One operation's canonical contract (docs/internals.md), parsed once."""

    operation_id: str
    method: str | None
    path: str | None
    pointer: str | None
    kind: str
    mode: str
    scope: ScopeDecl | None
    items: str | None
    id: str | None
    pagination: Pagination | None
    reasons: tuple[ReasonDecl, ...]
    warnings: tuple[str, ...]
    deadline: Deadline | None
    evidence: Evidence | None
    mutation: Mutation | None
    omitted_fields: str | None
    destructive: bool = False
    items_expr: Expression | None = field(default=None, compare=False, repr=False)
    id_pointer: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    omitted_fields_expr: Expression | None = field(default=None, compare=False, repr=False)

    @property
    def declared_codes(self) -> frozenset[str]:
        """Reason codes a result of this operation may carry from the server."""
        return frozenset(r.code for r in self.reasons)

    @property
    def declared_warnings(self) -> frozenset[str]:
        return frozenset(self.warnings)

    @property
    def is_listing(self) -> bool:
        return self.kind in LISTING_KINDS

    @property
    def not_a_listing(self) -> bool:
        """``kind: none``: recorded as not a listing (no operation is generated for it)."""
        return self.kind == NOT_A_LISTING

    @property
    def is_mutation(self) -> bool:
        return self.kind == "mutation"

    @property
    def is_adapter(self) -> bool:
        return self.mode == "adapter"

    @property
    def mints_evidence(self) -> bool:
        return self.evidence is not None and self.evidence.mint

    @property
    def evidence_from(self) -> str | None:
        """The listing whose complete result authorises this mutation (``evidence.from``)."""
        return None if self.mutation is None else self.mutation.from_

    @property
    def recheck_each_target(self) -> str | None:
        """The single-read operation a mutation re-reads each target with."""
        return None if self.mutation is None else self.mutation.recheck_each_target

    @property
    def items_location(self) -> str:
        """Where the items are read: the declared location, else a native envelope's."""
        return self.items or DEFAULT_ITEMS

    @property
    def items_body_pointer(self) -> str:
        """The JSON pointer part of :attr:`items_location` (``/items``; ``""`` for the body)."""
        return self.items_location.partition("#")[2]

    @property
    def next_location(self) -> Expression | None:
        """The parsed location of the next cursor or link; a native cursor listing that names
        none reads the native envelope's ``next_cursor``."""
        pag = self.pagination
        if pag is None:
            return None
        if pag.response.next_expr is not None or pag.response.next is not None:
            return pag.response.next_expr
        if self.mode == "native" and pag.style == "cursor" and pag.response.next_last_item is None:
            return parse_expression(DEFAULT_NATIVE_NEXT)
        return None

    def reason(self, code: str) -> ReasonDecl | None:
        for decl in self.reasons:
            if decl.code == code:
                return decl
        return None

    def reason_index(self, code: str) -> int | None:
        """Where ``code`` sits in ``reasons`` (for a diagnostic's pointer); None if undeclared."""
        for index, decl in enumerate(self.reasons):
            if decl.code == code:
                return index
        return None

    def continuation_of(self, code: str) -> str:
        """The continuation of ``code`` on this operation: the declaration's, else the
        registry default (the client's own codes, never declared)."""
        decl = self.reason(code)
        return decl.continuation if decl is not None else STANDARD_REGISTRY.continuation_for(code)

    def origin_of(self, code: str) -> str:
        decl = self.reason(code)
        return decl.origin if decl is not None else STANDARD_REGISTRY.origin_for(code)

    def to_dict(self) -> dict[str, Any]:
        """The canonical dict (docs/internals.md): the exact inverse of :meth:`from_dict`."""
        return {
            "operation_id": self.operation_id,
            "method": self.method,
            "path": self.path,
            "pointer": self.pointer,
            "kind": self.kind,
            "mode": self.mode,
            "scope": None if self.scope is None else self.scope.to_dict(),
            "items": self.items,
            "id": self.id,
            "pagination": None if self.pagination is None else self.pagination.to_dict(),
            "reasons": [r.to_dict() for r in self.reasons],
            "warnings": list(self.warnings),
            "deadline": None if self.deadline is None else self.deadline.to_dict(),
            "evidence": None if self.evidence is None else self.evidence.to_dict(),
            "mutation": None if self.mutation is None else self.mutation.to_dict(),
            "omitted_fields": self.omitted_fields,
            "destructive": self.destructive,
        }

    @classmethod
    def from_dict(
        cls, canonical: Mapping[str, Any], *, path: str = "", strict: bool = True
    ) -> Contract:
        """Build from the canonical dict; raise ContractError (with a JSON path) when malformed.

        ``strict=False`` (the generator, before its rules ran): an expression, pointer or
        ``when`` that does not parse is kept as text without a parsed form, and a missing
        ``operation_id`` or ``kind`` is kept as None; the shape is still checked.
        """
        r = _Reader(canonical, path, strict)
        items, items_expr = r.expr("items")
        omitted, omitted_expr = r.expr("omitted_fields")
        id_text, id_pointer = r.pointer("id")
        return cls(
            operation_id=r.req("operation_id", str),
            method=r.opt("method", str),
            path=r.opt("path", str),
            pointer=r.opt("pointer", str),
            kind=r.req("kind", str),
            mode=r.opt("mode", str) or "native",
            scope=_scope(r.sub("scope")),
            items=items,
            id=id_text,
            pagination=_pagination(r.sub("pagination")),
            reasons=_reasons(canonical.get("reasons"), r.at("reasons"), strict),
            warnings=r.str_list("warnings"),
            deadline=_deadline(r.sub("deadline")),
            evidence=_evidence(r.sub("evidence")),
            mutation=_mutation(r.sub("mutation")),
            omitted_fields=omitted,
            destructive=bool(r.opt("destructive", bool)),
            items_expr=items_expr,
            id_pointer=id_pointer,
            omitted_fields_expr=omitted_expr,
        )


def _scope(r: _Reader | None) -> ScopeDecl | None:
    return None if r is None else ScopeDecl.from_reader(r)


def _pagination(r: _Reader | None) -> Pagination | None:
    if r is None:
        return None
    req = r.sub("request")
    resp = r.sub("response")
    request = PaginationRequest()
    if req is not None:
        request = PaginationRequest(
            cursor=req.opt("cursor", str),
            size=req.opt("size", str),
            offset=req.opt("offset", str),
            page=req.opt("page", str),
            body=req.str_list("body"),
        )
    response = PaginationResponse()
    if resp is not None:
        nxt, nxt_expr = resp.expr("next")
        total, total_expr = resp.expr("total")
        pages, pages_expr = resp.expr("pages")
        last, last_pointer = resp.pointer("next_last_item")
        last_page, last_page_expr = resp.expr("last")
        response = PaginationResponse(
            next=nxt,
            next_last_item=last,
            total=total,
            pages=pages,
            last=last_page,
            next_expr=nxt_expr,
            next_last_item_pointer=last_pointer,
            total_expr=total_expr,
            pages_expr=pages_expr,
            last_expr=last_page_expr,
        )
    cur = r.sub("cursor")
    cursor = None
    if cur is not None:
        cursor = CursorRules(
            snapshot=cur.opt("snapshot", str),
            ttl_seconds=cur.opt("ttl_seconds", _NUMBER),
            invalidated_by=cur.str_list("invalidated_by"),
            on_expiry=cur.opt("on_expiry", str),
        )
    return Pagination(
        style=r.req("style", str),
        request=request,
        response=response,
        max_page_size=r.opt("max_page_size", int),
        ordering=r.opt("ordering", str),
        cursor=cursor,
        end=r.opt("end", str),
        first_page=_first_page(r.opt("first_page", int)),
    )


def _first_page(value: int | None) -> int:
    """The first page number (1 unless declared; a negative one is refused, like the schema)."""
    if value is None:
        return 1
    if value < 0:
        raise ContractError("first_page must not be negative", "pagination/first_page")
    return value


def _reasons(raw: Any, path: str, strict: bool = True) -> tuple[ReasonDecl, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ContractError("expected a list", path)
    out: list[ReasonDecl] = []
    for index, item in enumerate(raw):
        r = _Reader(item, f"{path}/{index}", strict)
        code = r.req("code", str)
        when_raw = item.get("when")
        when = None
        if when_raw is not None:
            try:
                when = parse_condition(when_raw)
            except ExpressionError as exc:
                if strict:
                    raise ContractError(exc.message, r.at("when") + exc.pointer) from None
        details = r.opt("details", Mapping) or {}
        out.append(
            ReasonDecl(
                code=code,
                when=when,
                details=dict(details),
                continuation=r.opt("continuation", str) or STANDARD_REGISTRY.continuation_for(code),
                origin=r.opt("origin", str) or STANDARD_REGISTRY.origin_for(code),
                when_raw=when_raw,
            )
        )
    return tuple(out)


def _deadline(r: _Reader | None) -> Deadline | None:
    if r is None:
        return None
    return Deadline(
        param=r.opt("param", str),
        unit=r.opt("unit", str) or "ms",
        default=r.opt("default", _NUMBER),
        max=r.opt("max", _NUMBER),
    )


def _evidence(r: _Reader | None) -> Evidence | None:
    if r is None:
        return None
    return Evidence(
        mint=bool(r.opt("mint", bool)),
        ttl_seconds=r.opt("ttl_seconds", _NUMBER),
        accept=r.str_list("accept"),
    )


def _mutation(r: _Reader | None) -> Mutation | None:
    if r is None:
        return None
    ids, ids_expr = r.expr("ids")
    token, token_expr = r.expr("token")
    return Mutation(
        from_=r.opt("from", str),
        ids=ids,
        token=token,
        void_on_warnings=r.str_list("void_on_warnings"),
        recheck_each_target=r.opt("recheck_each_target", str),
        ids_expr=ids_expr,
        token_expr=token_expr,
    )


# ------------------------------------------------------------------------------------------
# the registry


@record(frozen=True)
class CodeEntry:
    """One reason or warning code: details schema, default continuation, origin.

    ``owner`` and ``review_by`` are what a document's ``x-completeness-registry`` says about a
    custom code (who answers for it, when to look at it again: rule XC119); the generator reads
    them, ``_contracts.json`` does not carry them (:meth:`to_dict`), so a package's runtime never
    sees them.
    """

    code: str
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    continuation: str | None = None
    origin: str = "server"
    description: str = ""
    standard: bool = True
    owner: str | None = field(default=None, compare=False)
    review_by: date | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``_contracts.json`` holds it (the inverse of the registry's reader)."""
        out: dict[str, Any] = {
            "description": self.description,
            "details": dict(self.details),
            "origin": self.origin,
            "standard": self.standard,
        }
        if self.continuation is not None:
            out["continuation"] = self.continuation
        return out


def _code_entries(raw: Any, path: str, *, reasons: bool) -> dict[str, CodeEntry]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ContractError("expected an object of codes", path)
    out: dict[str, CodeEntry] = {}
    for code, entry in raw.items():
        r = _Reader(entry, f"{path}/{code}")
        default_cont = STANDARD_CONTINUATIONS.get(code, "none") if reasons else None
        out[code] = CodeEntry(
            code=code,
            details=dict(r.opt("details", Mapping) or {}),
            continuation=(r.opt("continuation", str) or default_cont) if reasons else None,
            origin=r.opt("origin", str) or STANDARD_ORIGINS.get(code, "server"),
            description=r.opt("description", str) or "",
            standard=r.opt("standard", bool) is not False,
        )
    return out


def _names_of(raw: Any, path: str) -> tuple[str, ...]:
    """``field_omissions`` / ``continuations`` as a list of names (a list or an object of them)."""
    if raw is None:
        return ()
    if isinstance(raw, Mapping):
        return tuple(str(k) for k in raw)
    if isinstance(raw, list) and all(isinstance(v, str) for v in raw):
        return tuple(raw)
    raise ContractError("expected a list of names", path)


@record(frozen=True)
class Registry:
    """The codes a document may use, or a package can meet: reason and warning codes -> details
    schema, continuation kind, origin.

    The one registry class: the generator builds it from ``spec_ext/codes.json`` and the
    document's ``x-completeness-registry`` (``xcompleteness.declare.load_registry``), writes it
    into ``_contracts.json`` with :meth:`to_dict`, and the runtime reads it back with
    :meth:`from_dict`. The empty registry knows the standard continuations and origins alone.
    """

    reasons: Mapping[str, CodeEntry] = field(default_factory=dict, hash=False)
    warnings: Mapping[str, CodeEntry] = field(default_factory=dict, hash=False)
    field_omissions: tuple[str, ...] = ()
    continuations: tuple[str, ...] = CONTINUATION_KINDS

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, *, path: str = "") -> Registry:
        if data is None:
            return cls()
        r = _Reader(data, path)
        return cls(
            reasons=_code_entries(data.get("reasons"), r.at("reasons"), reasons=True),
            warnings=_code_entries(data.get("warnings"), r.at("warnings"), reasons=False),
            field_omissions=_names_of(data.get("field_omissions"), r.at("field_omissions")),
            continuations=_names_of(data.get("continuations"), r.at("continuations"))
            or CONTINUATION_KINDS,
        )

    def reason(self, code: str) -> CodeEntry | None:
        return self.reasons.get(code)

    def warning(self, code: str) -> CodeEntry | None:
        return self.warnings.get(code)

    @property
    def custom_codes(self) -> tuple[CodeEntry, ...]:
        """The registered (non-standard) reason and warning codes, by code."""
        custom = [*self.reasons.values(), *self.warnings.values()]
        return tuple(sorted((e for e in custom if not e.standard), key=lambda e: e.code))

    def to_dict(self, used: Iterable[str] | None = None) -> dict[str, Any]:
        """The registry as ``_contracts.json`` holds it: the inverse of :meth:`from_dict`.

        With ``used``, only those reason and warning codes plus every client code are kept, so
        a generated package carries what it can meet and nothing else.
        """
        keep = None
        if used is not None:
            client = {
                c
                for c, e in (*self.reasons.items(), *self.warnings.items())
                if e.origin == "client"
            }
            keep = set(used) | client
        return {
            "reasons": {
                c: e.to_dict() for c, e in sorted(self.reasons.items()) if keep is None or c in keep
            },
            "warnings": {
                c: e.to_dict()
                for c, e in sorted(self.warnings.items())
                if keep is None or c in keep
            },
            "field_omissions": list(self.field_omissions),
            "continuations": list(self.continuations),
        }

    def continuation_for(self, code: str) -> str:
        """Default continuation kind of a reason code ("none" for a code nobody declared).

        The one place a reason's continuation is worked out: ``normalize`` (generator), the IR
        and the walk (through :meth:`Contract.continuation_of`) all ask here.
        """
        entry = self.reasons.get(code)
        if entry is not None and entry.continuation:
            return entry.continuation
        return STANDARD_CONTINUATIONS.get(code, "none")

    def origin_for(self, code: str) -> str:
        """Origin (``server`` or ``client``) of a reason code; ``server`` for unknown codes."""
        entry = self.reasons.get(code)
        if entry is not None:
            return entry.origin
        return STANDARD_ORIGINS.get(code, "server")

    def warning_origin_for(self, code: str) -> str:
        """Origin of a warning code; ``server`` for unknown codes."""
        entry = self.warnings.get(code)
        if entry is not None:
            return entry.origin
        return WARNING_ORIGINS.get(code, "server")

    @property
    def client_codes(self) -> frozenset[str]:
        declared = {c for c, e in self.reasons.items() if e.origin == "client"}
        return frozenset(declared | CLIENT_CODES)


STANDARD_REGISTRY: Registry = Registry()
"""The standard codes alone (what a contract falls back on for a code it does not declare)."""


def as_contract(contract: Contract | Mapping[str, Any], *, kind: str = "collection") -> Contract:
    """A :class:`Contract` as it is; a canonical dict through :meth:`Contract.from_dict`.

    For the runtime's entry points (the walk, ``operations``) that tests and hand-written code
    call with a dict: such a dict may leave out ``operation_id`` (``"?"``) and ``kind``.
    """
    if isinstance(contract, Contract):
        return contract
    if not isinstance(contract, Mapping):
        raise ContractError(f"expected a Contract or its canonical dict, not {type(contract)}")
    return Contract.from_dict({"operation_id": "?", "kind": kind, **contract})


class ContractMap(Mapping[str, Contract]):
    """operationId -> :class:`Contract`, each built from its canonical dict on first access.

    What a generated client holds: importing the package parses nothing, and the first call of
    one operation parses only that operation's contract (a malformed one raises
    :class:`ContractError` then, naming its JSON path).
    """

    def __init__(self, raw: Mapping[str, tuple[str, Any]]) -> None:
        self._raw = raw  # operationId -> (JSON path, canonical dict)
        self._built: dict[str, Contract] = {}

    def __getitem__(self, operation_id: str) -> Contract:
        built = self._built.get(operation_id)
        if built is None:
            where, value = self._raw[operation_id]
            built = self._built[operation_id] = Contract.from_dict(value, path=where)
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def load_contracts(
    path: str | Path, *, lazy: bool = False
) -> tuple[Mapping[str, Contract], Registry]:
    """Read a package's ``_contracts.json``: ``{"contracts": {opId: canonical}, "registry": ...}``.

    ``contracts`` may also be a list of canonical dicts (keyed then by their ``operation_id``).
    The one reader of that file (the generated client, MCP server and tools all call it); with
    ``lazy`` each contract is parsed on first access (:class:`ContractMap`).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContractError(f"cannot read contracts: {exc}") from None
    return contracts_from_document(data, lazy=lazy)


def contracts_from_document(
    data: Any, *, lazy: bool = False
) -> tuple[Mapping[str, Contract], Registry]:
    """The parsed form of a ``_contracts.json`` document already in memory."""
    r = _Reader(data, "")
    raw = data.get("contracts")
    entries: Iterable[tuple[str, Any]]
    if isinstance(raw, Mapping):
        entries = ((f"/contracts/{k}", v) for k, v in raw.items())
    elif isinstance(raw, list):
        entries = ((f"/contracts/{i}", v) for i, v in enumerate(raw))
    elif raw is None:
        entries = ()
    else:
        raise ContractError("expected an object or a list", r.at("contracts"))
    registry = Registry.from_dict(data.get("registry"), path="/registry")
    if lazy:
        keyed: dict[str, tuple[str, Any]] = {}
        for where, value in entries:
            op_id = _Reader(value, where).req("operation_id", str)
            keyed[op_id] = (where, value)
        return ContractMap(keyed), registry
    contracts: dict[str, Contract] = {}
    for where, value in entries:
        contract = Contract.from_dict(value, path=where)
        contracts[contract.operation_id] = contract
    return contracts, registry
