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

from xcompleteness.audit._walks import BODY
from xcompleteness.declare import not_a_listing
from xcompleteness.detect import ROLE_TYPES, jsonpath, patch_action
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import DEFAULTS_KEY, DocumentViews, pointer_tokens, views

__all__ = ["body_action", "declared_locations", "schema_patches"]


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
        # the predicate XC151 uses: no 2xx JSON body schema at all
        bare = not view.response_schemas(success_only=True)
        whole = body_action(document, view, decl, uses) if bare else None
        if whole is not None:
            # no JSON success body at all (Walmart's feeds answer ``default`` with no content):
            # one action adds the response with every location the declaration reads
            patches.setdefault(json.dumps([whole["target"], "body"]), whole)
            asked.setdefault("", whole["x-todo"][0])
            uses = [u for u in uses if not u[0].startswith(BODY)]
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


def body_action(
    document: Any, view: Any, decl: dict[str, Any], uses: list[tuple[str, str, str]]
) -> dict[str, Any] | None:
    """The Overlay action giving an operation without a JSON success body (no 2xx response, or
    one without JSON content: XC151) the body its declaration reads: every ``$response.body#``
    location typed by its role, the items' declared ``id`` inside them, each marked
    ``x-drafted-from``. The first 2xx response gets ``content``; without one, ``responses``
    gets a ``200``. None when the declaration reads no body location."""
    schema: dict[str, Any] = {}
    drafted_from = view.declaration_pointer
    todo = "TODO: drafted because the declaration reads it; confirm against a real response"
    for expr, role, _ in uses:
        tokens = pointer_tokens(expr[len(BODY) :]) if expr.startswith(BODY) else None
        if tokens is None:
            continue
        leaf: dict[str, Any] = dict(ROLE_TYPES.get(role, {}))
        leaf.update({"description": todo, "x-drafted-from": drafted_from})
        if role == "items":
            leaf["items"] = _item_schema(decl.get("id"))
        if not tokens:  # the body itself is the array of items
            schema = leaf if role == "items" else schema
            continue
        node = schema
        if node.get("type") == "array":
            continue  # a location beside a top-level array cannot be in the body
        for name in tokens[:-1]:
            node.setdefault("type", "object")
            node = node.setdefault("properties", {}).setdefault(name, {})
        node.setdefault("type", "object")
        node.setdefault("properties", {}).setdefault(tokens[-1], leaf)
    if not schema:
        return None
    content = {"application/json": {"schema": schema}}
    success = view.first_success()
    if success is not None:
        target, update = jsonpath(document, success.target), {"content": content}
    else:
        target = jsonpath(document, pointer_join(view.pointer, "responses"))
        update = {"200": {"description": "TODO: the success answer (drafted)", "content": content}}
    return {
        "target": target,
        "description": f"schema patch: the success body (read by {drafted_from})",
        "update": update,
        "x-todo": [
            "schema: the operation declares no JSON success body; this action adds one holding "
            "the locations the declaration reads: confirm each field and its type against a "
            "recorded response (audit --responses), then drop x-todo"
        ],
    }


def _item_schema(id_pointer: Any) -> dict[str, Any]:
    """An item holding the declared ``id`` (``/feedId``), or any value."""
    tokens = pointer_tokens(id_pointer) if isinstance(id_pointer, str) else None
    if not tokens:
        return {}
    node: dict[str, Any] = {}
    for name in reversed(tokens):
        node = {"type": "object", "properties": {name: node}}
    return node


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
