"""The schema patch for a declared location the response schema lacks (issue 19 §3).

Real specs under-describe their responses (Asana's lists have no ``next_page`` in their schemas,
Slack's metadata objects are bare). A declaration that reads such a location is right, and
``check`` refuses it (XC103/XC105/XC106) until the schema describes the field. The fix is an
Overlay action that adds the missing property where the declaration reads it: ``audit`` drafts
it (marked ``x-todo`` and ``x-drafted-from``), and ``check``'s hint names it.

``missing_at`` walks a ``$response.body#`` pointer through the success response schema (local
``$ref``s, ``allOf``/``anyOf``/``oneOf`` properties) and says where it leaves the schema: the
pointer of the last object schema that exists and the property names still missing.
``patch_action`` turns that into the Overlay 1.0 action.
"""

from __future__ import annotations

from typing import Any

from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import Operation, deref_at, pointer_tokens

__all__ = ["BODY", "LINK", "ROLE_TYPES", "jsonpath", "missing_at", "patch_action", "success_schema"]


BODY = "$response.body#"
# The JSON type a location's role implies: what the drafted property says it holds.
ROLE_TYPES: dict[str, dict[str, Any]] = {
    "items": {"type": "array", "items": {}},
    "next": {"type": "string"},
    "total": {"type": "integer"},
    "pages": {"type": "integer"},
    "flag": {"type": "boolean"},
    "value": {},
}


LINK = "$response.link."


def _header_action(
    document: Any, operation: Operation | None, expression: str, drafted_from: str
) -> dict[str, Any] | None:
    """Add a header (``Link`` for ``$response.link.*``) to the first 2xx response."""
    name = "Link" if expression.startswith(LINK) else expression[len("$response.header.") :]
    if operation is None or not operation.responses or not name:
        return None
    success = sorted(
        (r for r in operation.responses if r.status[:1] == "2"), key=lambda r: r.status != "200"
    )
    if not success:
        return None
    for response in operation.responses:  # declared on any response: check is satisfied
        if name.lower() in {h.lower() for h in response.headers}:
            return None
    rptr = success[0].target
    return {
        "target": jsonpath(document, rptr),
        "description": f"schema patch: add the {name} header (read by {drafted_from})",
        "update": {
            "headers": {
                name: {
                    "description": f"TODO: drafted because {drafted_from} reads {expression}; "
                    "confirm against a real response",
                    "schema": {"type": "string"},
                    "x-drafted-from": drafted_from,
                }
            }
        },
        "x-todo": [
            f"schema: no success response declares the {name} header {expression} reads; this "
            "action adds it: confirm it against a recorded response, then drop x-todo"
        ],
    }


def success_schema(operation: Operation | None) -> Located | None:
    """The first 2xx JSON response schema of an operation, with its pointer."""
    if operation is None:
        return None
    success = sorted(
        (r for r in operation.responses if r.status[:1] == "2"), key=lambda r: r.status != "200"
    )
    for response in success:
        for media in response.content:
            if "json" in media.name and media.schema is not None:
                schema = media.schema.raw
                return schema, pointer_join(response.target, "content", media.name, "schema")
    return None


def missing_at(
    walker: SchemaWalker, schema: Located, tokens: list[str]
) -> tuple[str, list[str]] | None:
    """(pointer of the deepest object schema on the way, the names missing below it), or None
    when the location exists or cannot be judged (an array step, a free-form object)."""
    node, at = walker.resolve(*schema)
    for i, token in enumerate(tokens):
        if not isinstance(node, dict) or node == {}:
            return None  # no schema to judge (a dangling ref, a free-form value)
        props = walker.properties(node, at)
        if token in props:
            node, at = walker.resolve(*props[token])
            continue
        if walker.is_array(node, at) or isinstance(node.get("additionalProperties"), dict):
            return None  # an index into an array, or a map: not a missing property
        if "object" not in walker.types(node, at) and node.get("type") is not None:
            return None  # a scalar on the way: the pointer is wrong, not the schema
        return at, tokens[i:]
    return None


def jsonpath(document: Any, pointer: str) -> str:
    """An RFC 9535 path selecting what ``pointer`` names in ``document`` (an index only where
    the node is an array: a response code ``200`` is a name). A local ``$ref`` on the way (a
    ``$ref`` path item: the views keep its ``/paths`` pointer) is followed: an Overlay selects
    the node where it is written."""
    out = ["$"]
    node = document
    tokens = list(pointer_tokens(pointer) or ())
    for i, token in enumerate(tokens):
        if isinstance(node, dict) and token not in node and isinstance(node.get("$ref"), str):
            located = deref_at(document, node)
            if located is not None:  # where the chain leads is written without a $ref
                return jsonpath(document, pointer_join(located[1], *tokens[i:]))
        if isinstance(node, list) and token.isdigit():
            out.append(f"[{token}]")
            node = node[int(token)] if int(token) < len(node) else None
        else:
            escaped = token.replace("\\", "\\\\").replace("'", "\\'")
            out.append(f"['{escaped}']")
            node = node.get(token) if isinstance(node, dict) else None
    return "".join(out)


def patch_action(
    document: Any,
    operation: Operation | None,
    expression: str,
    role: str,
    drafted_from: str,
) -> dict[str, Any] | None:
    """The Overlay action adding the property ``expression`` names to the success response
    schema (or the header it reads to the success response), or None when the spec has it (or
    cannot say)."""
    if isinstance(expression, str) and expression.startswith(("$response.header.", LINK)):
        return _header_action(document, operation, expression, drafted_from)
    if not isinstance(expression, str) or not expression.startswith(BODY):
        return None
    walker = SchemaWalker(document)
    schema = success_schema(operation)
    if schema is None:
        return None
    tokens = pointer_tokens(expression[len(BODY) :])
    if not tokens:
        return None
    found = missing_at(walker, schema, list(tokens))
    if found is None:
        return None
    at, missing = found
    leaf: dict[str, Any] = dict(ROLE_TYPES.get(role, {}))
    leaf["description"] = (
        f"TODO: drafted because {drafted_from} reads {expression}; confirm against a real response"
    )
    leaf["x-drafted-from"] = drafted_from
    node: dict[str, Any] = leaf
    for name in reversed(missing[1:]):
        node = {"type": "object", "properties": {name: node}}
    return {
        "target": jsonpath(document, at),
        "description": f"schema patch: add {'/'.join(missing)} (read by {drafted_from})",
        "update": {"properties": {missing[0]: node}},
        "x-todo": [
            f"schema: the response schema lacks {expression}; this action adds it as "
            f"{ROLE_TYPES.get(role, {}).get('type', 'a value')}: confirm the field and its "
            "type against a recorded response (audit --responses), then drop x-todo"
        ],
    }
