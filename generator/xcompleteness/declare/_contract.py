"""Raw ``x-completeness`` declaration -> the canonical contract of docs/internals.md.

Every later stage (rules, IR, the generated package's ``_contracts.json`` and its runtime) reads
one shape, so the vocabulary's conveniences are resolved here and nowhere else: kebab-case keys
become snake_case, bare reason codes become objects carrying the registry's default continuation
and origin, static details move under ``details``, ISO 8601 durations become seconds,
``{last-item: /ptr}`` becomes ``next_last_item``, and defaults are filled so every key is present
(null when unset).

``normalize`` returns the typed :class:`xcompleteness.runtime.contract.Contract` (built through
its ``from_dict``, so the generator and a generated package's runtime read one class;
``Contract.to_dict()`` is the canonical dict written to ``_contracts.json``). It expects a
declaration that passed ``vocabulary.validate_declarations``; on anything else it still returns a
contract (best effort, built with ``strict=False``: expressions that do not parse are kept as text
for the rules to report) rather than raising, because rules may run on a partially valid document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import DECLARATION_KEY, Operation
from xcompleteness.runtime.codes import LISTING_KINDS
from xcompleteness.runtime.contract import (
    BODY_LOCATION,
    DEFAULT_ITEMS,
    DEFAULT_NATIVE_NEXT,
    Contract,
    body_property,
)
from xcompleteness.runtime.contract import Registry as RuntimeRegistry

if TYPE_CHECKING:
    from xcompleteness.declare._vocabulary import Registry

__all__ = [
    "DEFAULT_EVIDENCE_TTL_SECONDS",
    "DEFAULT_LINK_NEXT",
    "DEFAULT_NATIVE_ITEMS",
    "NOT_A_LISTING",
    "OperationRef",
    "canonical_dict",
    "duration_seconds",
    "normalize",
    "not_a_listing",
    "operation_ref",
]


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


NOT_A_LISTING = "none"
"""``kind: none`` (with ``why``): a recorded "this is not a listing"; no contract is built."""


def not_a_listing(decl: Any) -> bool:
    """The declaration says ``kind: none``: the one answer to "is this recorded as not a
    listing?" (check, the rules, generate and the audit all ask it)."""
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
    decl: Mapping[str, Any], *, op: OperationRef, registry: Registry | RuntimeRegistry
) -> Contract:
    """The canonical contract (docs/internals.md) of one ``x-completeness`` declaration.

    ``registry`` is the document's code registry (``vocabulary.load_registry``) or its runtime
    form; each reason's default continuation and origin come from
    :meth:`xcompleteness.runtime.contract.Registry.continuation_for` / ``origin_for``.
    """
    runtime = registry if isinstance(registry, RuntimeRegistry) else registry.runtime
    return Contract.from_dict(canonical_dict(decl, op=op, registry=runtime), strict=False)


def canonical_dict(
    decl: Mapping[str, Any], *, op: OperationRef, registry: RuntimeRegistry
) -> dict[str, Any]:
    """The canonical dict of one declaration (what ``Contract.from_dict`` reads)."""
    kind = _str(decl.get("kind"))
    mode = _str(decl.get("mode")) or "native"
    listing = kind in LISTING_KINDS
    is_mutation = kind == "mutation"
    return {
        "operation_id": op.operation_id,
        "method": op.method,
        "path": op.path,
        "pointer": op.declaration_pointer,
        "kind": kind,
        "mode": mode,
        "scope": _scope(decl.get("scope")),
        "items": _items(decl.get("items"), listing=listing, mode=mode),
        "id": _str(decl.get("id")),
        "pagination": _pagination(decl.get("pagination"), listing=listing, mode=mode),
        "reasons": [_reason(r, registry) for r in _list(decl.get("reasons"))],
        "warnings": [w for w in _list(decl.get("warnings")) if isinstance(w, str)],
        "deadline": _deadline(decl.get("deadline")),
        "evidence": None if is_mutation else _listing_evidence(decl.get("evidence")),
        "mutation": _mutation(decl) if is_mutation else None,
        "omitted_fields": _loc(decl.get("omitted-fields")),
        "destructive": decl.get("destructive") is True,
    }


def _scope(raw: Any) -> dict[str, Any]:
    scope = raw if isinstance(raw, Mapping) else {}
    return {
        "resource": _str(scope.get("resource")),
        "visibility": _str(scope.get("visibility")),
        "snapshot": _str(scope.get("snapshot")) or "none",
        "covers": _str(scope.get("covers")),
    }


def _items(raw: Any, *, listing: bool, mode: str) -> str | None:
    if isinstance(raw, str):
        return _loc(raw)
    return DEFAULT_NATIVE_ITEMS if listing and mode == "native" else None


def _pagination(raw: Any, *, listing: bool, mode: str) -> dict[str, Any] | None:
    if not listing or not isinstance(raw, Mapping):
        return None
    style = _str(raw.get("style"))
    if style in (None, "none"):
        return None
    request = raw.get("request") if isinstance(raw.get("request"), Mapping) else {}
    response = raw.get("response") if isinstance(raw.get("response"), Mapping) else {}
    next_raw = response.get("next")
    next_expr = _loc(next_raw)
    last_item = next_raw.get("last-item") if isinstance(next_raw, Mapping) else None
    if next_expr is None and last_item is None:
        if style == "link-header":
            next_expr = DEFAULT_LINK_NEXT
        elif style == "cursor" and mode == "native":
            next_expr = DEFAULT_NATIVE_NEXT
    max_size = raw.get("max-page-size")
    return {
        "style": style,
        "request": _request(request),
        "response": {
            "next": next_expr,
            "next_last_item": _str(last_item),
            "total": _loc(response.get("total")),
            "pages": _loc(response.get("pages")),
            "last": _loc(response.get("last")),
        },
        "max_page_size": (
            max_size if isinstance(max_size, int) and not isinstance(max_size, bool) else None
        ),
        "ordering": _str(raw.get("ordering")),
        "cursor": _cursor_contract(raw.get("cursor"), numbered=style in ("offset", "page")),
        "end": _str(raw.get("end")),
    }


def _request(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The names the walk writes; a role declared ``$request.body#/NAME`` is the body property
    NAME, listed under ``body`` (a deeper or malformed body location stays as written, for the
    rules to report)."""
    out: dict[str, Any] = {}
    body: list[str] = []
    for role in ("cursor", "size", "offset", "page"):
        value = _str(raw.get(role))
        if value is not None and value.startswith(BODY_LOCATION):
            value = body_property(value) or value
            body.append(role)
        out[role] = value
    if body:
        out["body"] = body
    return out


def _cursor_contract(raw: Any, *, numbered: bool = False) -> dict[str, Any] | None:
    """The cursor contract; for offset and page styles (a client continuation, no server
    cursor to expire) only ``snapshot`` and ``invalidated-by`` apply, so no expiry default."""
    if not isinstance(raw, Mapping):
        return None
    return {
        "snapshot": _str(raw.get("snapshot")) or "live",
        "ttl_seconds": duration_seconds(raw.get("ttl")),
        "invalidated_by": [v for v in _list(raw.get("invalidated-by")) if isinstance(v, str)],
        "on_expiry": _str(raw.get("on-expiry")) or (None if numbered else "error"),
    }


def _reason(raw: Any, registry: RuntimeRegistry) -> dict[str, Any]:
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
    return {
        "code": code,
        "when": when,
        "details": details,
        "continuation": override or registry.continuation_for(code),
        "origin": registry.origin_for(code),
    }


def _deadline(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, Mapping):
        return None
    return {
        "param": _str(raw.get("param")),
        "unit": _str(raw.get("unit")) or "ms",
        "default": _num(raw.get("default")),
        "max": _num(raw.get("max")),
    }


def _listing_evidence(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, Mapping):
        return None
    mint = raw.get("mint") is True
    ttl = duration_seconds(raw.get("ttl"))
    out: dict[str, Any] = {
        "mint": mint,
        "ttl_seconds": (ttl if ttl is not None else DEFAULT_EVIDENCE_TTL_SECONDS) if mint else ttl,
    }
    accept = [c for c in _list(raw.get("accept")) if isinstance(c, str)]
    if accept:  # only when declared: the canonical form of every other listing is unchanged
        out["accept"] = accept
    return out


def _mutation(decl: Mapping[str, Any]) -> dict[str, Any]:
    evidence = decl.get("evidence") if isinstance(decl.get("evidence"), Mapping) else {}
    recheck = decl.get("recheck") if isinstance(decl.get("recheck"), Mapping) else {}
    return {
        "from": _str(evidence.get("from")),
        "ids": _loc(evidence.get("ids")),
        "token": _loc(evidence.get("token")),
        "void_on_warnings": [
            w for w in _list(evidence.get("void-on-warnings")) if isinstance(w, str)
        ],
        "recheck_each_target": _str(recheck.get("each-target")),
    }


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
