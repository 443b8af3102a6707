"""Listings that the shape of a request body or the lack of a response schema reveals.

* ``body_cursor``: a POST (or other non-GET) that sends a cursor-named field in its JSON request
  body and gets the next one back in its response (Square's ``batch-retrieve-*``: ``cursor`` in,
  ``cursor`` out; Box's metadata query: ``marker`` in, ``next_marker`` out) pages a listing,
  whatever its name. The vocabulary declares query-parameter cursors only, so the draft says so.
* ``example_arrays``: top-level arrays an example shows that the schema does not declare
  (Slack's "brief OK" schemas with ``{ok, group_ids: [...]}`` in the example);
* ``arrays_named``: the top-level arrays named after the path's last noun (``GET .../tabs``
  answering one array per kind of tab: ``signHereTabs``, ``dateTabs``...);
* ``same_item_arrays``: a body made only of two or more arrays of one named item schema (Mastodon's
  status context ``{ancestors: [Status], descendants: [Status]}``): one listing in named parts;
* ``nested_arrays``: the arrays one object down in a response (Mailchimp's member search
  answers ``{exact_matches: {members: [...]}, full_search: {members: [...]}}``);
* ``series_parts``: one object of the body made only of two or more arrays whose items share
  one shape (a trend chart's ``{results: {high: [...], medium: [...], low: [...]}, step}``):
  series per category of one computed result.
"""

from __future__ import annotations

import json
from typing import Any

from xcompleteness.detect import _words as sig
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import Operation

__all__ = [
    "arrays_named",
    "body_cursor",
    "body_cursor_fields",
    "example_arrays",
    "series_parts",
    "nested_arrays",
    "same_item_arrays",
]


def _request_schema(op: Operation, walker: SchemaWalker) -> Located | None:
    for ref in op.request_schemas():
        return walker.resolve(ref.raw, ref.pointer)
    return None


def body_cursor(
    op: Operation, walker: SchemaWalker, next_tokens: list[tuple[str, str]]
) -> tuple[str, str] | None:
    """(request body field, response expression) of a cursor the response feeds back into the
    request body, or None. ``next_tokens``: (field name, expression) of the response's next
    tokens."""
    if not next_tokens:
        return None
    for name, key in body_cursor_fields(op, walker):
        for token, expression in next_tokens:
            if sig.fold(token) in (key, "next" + key):
                return name, expression
    return None


def body_cursor_fields(op: Operation, walker: SchemaWalker) -> tuple[tuple[str, str], ...]:
    """(name, folded name) of the JSON request body's fields named like a cursor: the fields
    :func:`body_cursor` may find fed by the response (none: it finds nothing)."""
    schema = _request_schema(op, walker)
    if schema is None:
        return ()
    node, at = schema
    # kept per schema: Microsoft Graph's POSTs send a few hundred entity schemas 2,556 times
    return walker.remembered(
        ("body_cursor_fields", id(node), at), node, lambda: _cursors(node, at, walker)
    )


def _cursors(node: Any, at: str, walker: SchemaWalker) -> tuple[tuple[str, str], ...]:
    out = []
    for name in walker.properties(node, at):
        key = sig.fold(name)
        if key not in sig.CURSOR_PARAMS or key == sig.AMBIGUOUS_NEXT:
            continue  # ``next`` in a body is as often a value (a next build number) as a cursor
        out.append((name, key))
    return tuple(out)


def nested_arrays(body: Located | None, walker: SchemaWalker) -> list[str]:
    """Relative pointers of the non-meta arrays one object down in the response body."""
    if body is None:
        return []
    out = []
    for name, (sub, sptr) in walker.properties(*walker.resolve(*body)).items():
        if sig.fold(name) in sig.META_NAMES or "object" not in walker.types(sub, sptr):
            continue
        for inner, (isub, iptr) in walker.properties(sub, sptr).items():
            folded = sig.fold(inner)
            if folded in sig.META_NAMES or sig.is_meta_array(folded):
                continue
            if walker.is_array(isub, iptr):
                out.append(pointer_join("", name, inner))
    return out


def example_arrays(
    examples: list[Any], props: dict[str, Located], walker: SchemaWalker
) -> list[str]:
    """Names of the top-level arrays the examples show where the schema declares no array."""
    if any(walker.is_array(*located) for located in props.values()):
        return []
    names: list[str] = []
    for example in examples:
        if not isinstance(example, dict):
            continue
        for name, value in example.items():
            folded = sig.fold(str(name))
            if folded in sig.META_NAMES or sig.is_meta_array(folded):
                continue
            if isinstance(value, list) and name not in names:
                names.append(str(name))
    return names


def arrays_named(body: Located | None, walker: SchemaWalker, noun: str) -> list[str]:
    """Names of the top-level arrays whose name ends with ``noun`` (folded, at least 4 long)."""
    if body is None or len(noun) < 4:
        return []
    props = walker.properties(*walker.resolve(*body))
    return [
        name
        for name, located in props.items()
        if sig.fold(name).endswith(noun) and walker.is_array(*located)
    ]


def same_item_arrays(body: Located | None, walker: SchemaWalker) -> list[str]:
    """Names of the top-level arrays when the body holds nothing else and they are at least two
    arrays of one and the same referenced object schema (the parts of one listing), else []."""
    if body is None:
        return []
    props = walker.properties(*walker.resolve(*body))
    items: set[int] = set()
    for located in props.values():
        item = walker.array_items(*located) if walker.is_array(*located) else None
        if item is None or not isinstance(item[0], dict) or "$ref" not in item[0]:
            return []
        node, at = walker.resolve(*item)
        if not walker.properties(node, at):
            return []
        items.add(id(node))
    return sorted(props) if len(props) > 1 and len(items) == 1 else []


def series_parts(body: Located | None, walker: SchemaWalker) -> tuple[str, list[str]] | None:
    """(the part, its arrays) when the body's only object property holds nothing but two or more
    arrays whose items are one and the same shape (the same schema text once resolved) and carry
    no identifier, and the body's other properties are plain values: the series of one chart or
    breakdown, keyed by category (``{results: {high: [...], medium: [...], low: [...]}, step}``).
    Parts beside other objects (DigitalOcean's database options beside its version availability)
    or arrays of records with ids (a deletion status per kind of resource) are one object's
    fields. None otherwise."""
    if body is None:
        return None
    parts = []
    for name, (sub, sptr) in walker.properties(*walker.resolve(*body)).items():
        types = walker.types(sub, sptr)
        if "array" in types:
            return None
        if "object" in types and sig.fold(name) not in sig.META_NAMES:
            parts.append((name, sub, sptr))
    if len(parts) != 1:
        return None
    name, sub, sptr = parts[0]
    inner = walker.properties(sub, sptr)
    if len(inner) < 2 or not all(walker.is_array(*located) for located in inner.values()):
        return None
    shapes = {_item_text(walker, located) for located in inner.values()}
    return (name, sorted(inner)) if len(shapes) == 1 and "" not in shapes else None


def _item_text(walker: SchemaWalker, located: Located) -> str:
    """An array's item schema, resolved, as sorted JSON text; "" when its items are no object
    or carry an identifier (``id``, ``uuid``)."""
    item = walker.array_items(*located)
    if item is None:
        return ""
    node, at = walker.resolve(*item)
    fields = walker.properties(node, at) if isinstance(node, dict) else {}
    if not fields or any(sig.fold(f) in ("id", "uuid") for f in fields):
        return ""
    return json.dumps(node, sort_keys=True, default=str)
