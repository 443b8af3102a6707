"""Schema patches for declarations that read locations the response schema lacks (issue 19 §3).

For every operation that already carries an ``x-completeness`` declaration (in the spec or an
overlay given to ``audit``), each body location it reads -- ``items``, the pagination
``response`` locations, the expressions of its ``when`` conditions -- is looked up in the
success response schema; a missing one gets an Overlay action adding the property
(:func:`xcompleteness.detect.patch_action`), and the declaration gets an ``x-todo`` entry so
``check --strict`` fails until a person has confirmed the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from xcompleteness.declare import not_a_listing
from xcompleteness.detect import patch_action
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import DEFAULTS_KEY, DocumentViews, views

__all__ = ["declared_locations", "schema_patches"]


_ORDER_OPS = ("gt", "gte", "lt", "lte")


def _when_locations(when: Any, at: str) -> Iterator[tuple[str, str, str]]:
    """(expression, role, pointer) of every body expression a condition reads."""
    if not isinstance(when, dict):
        return
    for op, arg in when.items():
        here = pointer_join(at, op)
        if op in ("all", "any") and isinstance(arg, list):
            for i, sub in enumerate(arg):
                yield from _when_locations(sub, pointer_join(here, i))
        elif op in ("present", "absent") and isinstance(arg, str):
            yield arg, "value", here
        elif isinstance(arg, list) and len(arg) == 2 and isinstance(arg[0], str):
            value = arg[1]
            if isinstance(value, bool):
                role = "flag"
            elif op in _ORDER_OPS:
                role = "total"
            elif isinstance(value, str):
                role = "next"
            else:
                role = "value"
            yield arg[0], role, pointer_join(here, 0)


def declared_locations(decl: dict[str, Any], at: str) -> Iterator[tuple[str, str, str]]:
    """(expression, role, pointer) of every body location a raw declaration reads."""
    items = decl.get("items")
    if isinstance(items, str):
        yield items, "items", pointer_join(at, "items")
    pagination = decl.get("pagination")
    response = pagination.get("response") if isinstance(pagination, dict) else None
    if isinstance(response, dict):
        for key in ("next", "total", "pages"):
            value = response.get(key)
            if isinstance(value, str):
                yield (
                    value,
                    "next" if key == "next" else key,
                    pointer_join(at, "pagination", "response", key),
                )
    reasons = decl.get("reasons")
    if isinstance(reasons, list):
        for i, reason in enumerate(reasons):
            if isinstance(reason, dict):
                yield from _when_locations(
                    reason.get("when"), pointer_join(at, "reasons", i, "when")
                )


def schema_patches(document: Any, parsed: DocumentViews | None = None) -> list[dict[str, Any]]:
    """Overlay actions: one per missing property (deduplicated), then one ``x-todo`` entry per
    declaration that needs a patch. ``parsed``: the document's views, if already parsed."""
    patches: dict[str, dict[str, Any]] = {}
    todos: list[dict[str, Any]] = []
    defaults = document.get(DEFAULTS_KEY) if isinstance(document, dict) else None
    mode = defaults.get("mode") if isinstance(defaults, dict) else None
    for view in (parsed or views(document)).operations:
        pointer, decl = view.pointer, view.declaration
        if not isinstance(decl, dict) or not_a_listing(decl):
            continue
        if decl.get("mode", mode) != "adapter":
            continue  # a native envelope's fields are the generator's, not the schema's
        at = view.declaration_pointer
        asked: dict[str, str] = {}
        # one patch per missing location, drafted from its most telling use (a next cursor
        # says "string", a `present` test says nothing about the type)
        uses = sorted(declared_locations(decl, at), key=lambda u: _RANK.index(u[1]))
        for expr, role, where in uses:
            action = patch_action(document, view, expr, role, where)
            if action is None:
                continue
            key = json.dumps([action["target"], _names(action["update"])])
            patches.setdefault(key, action)
            asked.setdefault(expr, patches[key]["x-todo"][0])
        if asked:
            todos.append(
                {
                    "target": _op_target(pointer),
                    "description": "schema patch TODOs for this declaration",
                    "update": {"x-completeness": {"x-todo": list(asked.values())}},
                }
            )
    return list(patches.values()) + todos


_RANK = ["items", "next", "total", "pages", "flag", "value"]


def _names(node: Any) -> Any:
    """The property names an update adds (its identity, whatever the drafted types)."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            return {k: _names(v) for k, v in props.items()}
    return None


def _op_target(pointer: str) -> str:
    from xcompleteness.document import overlay_target

    return overlay_target(pointer)
