"""Does a declared location exist? Lookups in the schemas of responses and request bodies.

The semantic rules ask questions such as "is ``/items/0/id`` a place the 200 response can
have?". Schemas are followed through local ``$ref``, ``allOf``/``anyOf``/``oneOf``, ``items``
and ``additionalProperties``. The answer is three-valued: a location is ``FOUND``, ``MISSING``
(the schema names its properties and this is not one of them) or ``UNKNOWN`` (an open schema,
an external ref, no schema at all). Only ``MISSING`` becomes a diagnostic, so a rule never
reports a location the spec simply leaves undescribed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from xcompleteness.document import deref

__all__ = ["Found", "schema_lookup", "schema_types_at"]

_MAX_STEPS = 10_000
_MAX_DEPTH = 100
"""Deeper lookups answer UNKNOWN (declared pointers are a few tokens long)."""


class Found(enum.Enum):
    FOUND = "found"
    MISSING = "missing"
    UNKNOWN = "unknown"


def schema_lookup(document: Any, schema: Any, tokens: tuple[str, ...]) -> Found:
    """Whether ``tokens`` (a JSON pointer, split) can address a value valid under ``schema``."""
    budget = [_MAX_STEPS]
    return _lookup(document, schema, tokens, budget, frozenset())


def _lookup(
    document: Any,
    schema: Any,
    tokens: tuple[str, ...],
    budget: list[int],
    active: frozenset[tuple[int, int]],
) -> Found:
    budget[0] -= 1
    if budget[0] <= 0 or len(active) > _MAX_DEPTH:
        return Found.UNKNOWN
    if isinstance(schema, Mapping) and "$ref" in schema:
        target = deref(document, schema)
        if target is None:
            return Found.UNKNOWN
        schema = target
    if not tokens:
        return Found.FOUND
    if schema is True or schema is None:
        return Found.UNKNOWN
    if schema is False or not isinstance(schema, Mapping):
        return Found.MISSING if schema is False else Found.UNKNOWN
    key = (id(schema), len(tokens))
    if key in active:  # a recursive schema: we learn nothing more by going round
        return Found.UNKNOWN
    active = active | {key}
    results: list[Found] = []
    for combinator in ("allOf", "anyOf", "oneOf"):
        for sub in _seq(schema.get(combinator)):
            results.append(_lookup(document, sub, tokens, budget, active))
    head, rest = tokens[0], tokens[1:]
    props = schema.get("properties")
    described = isinstance(props, Mapping)
    if described and head in props:
        results.append(_lookup(document, props[head], rest, budget, active))
    items = schema.get("items")
    if head.isdigit() and items is not None:
        described = True
        results.append(_lookup(document, items, rest, budget, active))
    prefix = schema.get("prefixItems")
    if head.isdigit() and isinstance(prefix, list) and int(head) < len(prefix):
        described = True
        results.append(_lookup(document, prefix[int(head)], rest, budget, active))
    if not head.isdigit() and _array_only(schema):
        described = True  # an array has no named members: /items/length is no location
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping) and not (isinstance(props, Mapping) and head in props):
        described = True
        results.append(_lookup(document, extra, rest, budget, active))
    if schema.get("patternProperties"):
        results.append(Found.UNKNOWN)  # we do not match regexes against names here
    if Found.FOUND in results:
        return Found.FOUND
    if Found.UNKNOWN in results:
        return Found.UNKNOWN
    if described or results:
        return Found.MISSING
    return Found.UNKNOWN


def schema_types_at(document: Any, schema: Any, tokens: tuple[str, ...]) -> frozenset[str] | None:
    """The JSON types declared for the value at ``tokens``; None when a schema there is open
    (no ``type``) or the walk gives up. Follows ``$ref``, combinators and ``properties``."""
    types: set[str] = set()
    open_ = [False]
    budget = [_MAX_STEPS]

    def visit(node: Any, toks: tuple[str, ...], depth: int) -> None:
        budget[0] -= 1
        if budget[0] <= 0 or depth > _MAX_DEPTH:
            open_[0] = True
            return
        if isinstance(node, Mapping) and "$ref" in node:
            node = deref(document, node)
        if not isinstance(node, Mapping):
            open_[0] = open_[0] or node is not False
            return
        subs = [sub for c in ("allOf", "anyOf", "oneOf") for sub in _seq(node.get(c))]
        for sub in subs:
            visit(sub, toks, depth + 1)
        if toks:
            props = node.get("properties")
            if isinstance(props, Mapping) and toks[0] in props:
                visit(props[toks[0]], toks[1:], depth + 1)
            return
        declared = node.get("type")
        if isinstance(declared, str):
            types.add(declared)
        elif isinstance(declared, list):
            types.update(str(t) for t in declared)
        elif not subs:
            open_[0] = True

    visit(schema, tokens, 0)
    return None if open_[0] else frozenset(types)


def _array_only(schema: Mapping[str, Any]) -> bool:
    """The schema admits arrays only: ``type: array`` (or ``items`` with no type), nothing of an
    object beside it."""
    kind = schema.get("type")
    if kind not in ("array", None) or (kind is None and "items" not in schema):
        return False
    return not any(k in schema for k in ("properties", "additionalProperties", "patternProperties"))


def _seq(value: Any) -> list[Any]:
    """``value`` if it is a list, else nothing (the OpenAPI validator reports the wrong type)."""
    return value if isinstance(value, list) else []
