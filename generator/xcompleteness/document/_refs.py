"""The one ``$ref`` / JSON-pointer resolver (RFC 6901 after percent-decoding the fragment).

check, its location rules, the audit's schema walker, the IR, verify and the tool schemas all
read references through these functions (re-exported by :mod:`xcompleteness.load._source`), so a
reference such as ``#/components/schemas/A%20B`` resolves the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

__all__ = [
    "MAX_REF_HOPS",
    "deref",
    "deref_at",
    "deref_mapping",
    "follow_refs",
    "iter_refs",
    "pointer_tokens",
    "ref_component",
    "ref_pointer",
    "resolve_pointer",
    "resolve_ref",
]

MAX_REF_HOPS = 32
"""How many ``$ref`` hops a chain may take before it is read as a cycle."""


def iter_refs(data: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(pointer of the $ref key's object, ref value)`` for every string ``$ref``."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield pointer, ref
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, pointer + "/" + k.replace("~", "~0").replace("/", "~1")))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{pointer}/{i}"))


def is_mapping(node: Any) -> bool:
    """``isinstance(node, Mapping)``, answered without the ABC check for a plain ``dict`` (every
    node of a parsed document; the ABC check costs about 0.3 s over Microsoft Graph's views)."""
    kind = type(node)
    return kind is dict or (kind not in _NEVER_MAPPINGS and isinstance(node, Mapping))


_NEVER_MAPPINGS = frozenset((type(None), str, list, int, float, bool))


def ref_pointer(ref: Any) -> str | None:
    """The JSON pointer a local ``$ref`` names, None for an external (or non-text) reference.

    A ``$ref`` is a URI reference, so its fragment is percent-decoded before it is read as an
    RFC 6901 pointer (RFC 6901 section 6): ``#/components/schemas/A%20B`` names ``/components/
    schemas/A B``. This is the one reading of a reference: check, its location rules, the audit's
    schema walker, the IR, verify and the tool schemas all resolve through it.
    """
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    return _unquoted(ref[1:])


@lru_cache(maxsize=65536)
def _unquoted(fragment: str) -> str:
    return unquote(fragment)


@lru_cache(maxsize=65536)
def pointer_tokens(pointer: str) -> tuple[str, ...] | None:
    """An RFC 6901 pointer split into unescaped tokens (``~1`` -> ``/``, then ``~0`` -> ``~``).
    (Cached: a large document's readers split the same few thousand ``$ref`` targets over and
    over.)"""
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        return None
    return tuple(raw.replace("~1", "/").replace("~0", "~") for raw in pointer[1:].split("/"))


def resolve_ref(data: Any, ref: Any) -> tuple[bool, Any]:
    """Resolve a local ``$ref`` (:func:`ref_pointer`) in ``data``; returns ``(found, value)``."""
    pointer = ref_pointer(ref)
    if pointer is None:
        return False, None
    return resolve_pointer(data, pointer)


def deref_at(
    data: Any, node: Any, pointer: str = "", limit: int = MAX_REF_HOPS
) -> tuple[Any, str] | None:
    """``(node, pointer)`` with the chain of local ``$ref``s from ``node`` (written at
    ``pointer``) followed: the node at the end of the chain and the decoded JSON pointer where it
    sits (``pointer`` itself for a node without ``$ref``). None when a ``$ref`` on the way is
    external or dangling or the chain is longer than ``limit`` (a cycle). The one ``$ref``
    follower: :func:`follow_refs`, :func:`deref` and the audit's schema walker read through it.
    """
    if type(node) is dict and "$ref" not in node:
        return node, pointer  # the common case (an inline node): nothing to follow
    for _ in range(limit + 1):
        if not (is_mapping(node) and isinstance(node.get("$ref"), str)):
            return node, pointer
        target = ref_pointer(node["$ref"])
        if target is None:
            return None
        found, node = resolve_pointer(data, target)
        if not found:
            return None
        pointer = target
    return None


def follow_refs(data: Any, node: Any, limit: int = MAX_REF_HOPS) -> tuple[bool, Any]:
    """Follow a chain of local ``$ref``s from ``node``; ``(False, None)`` when one is external or
    dangling or the chain is longer than ``limit`` (a cycle). A node without ``$ref`` is found."""
    located = deref_at(data, node, "", limit)
    return (False, None) if located is None else (True, located[0])


def deref(data: Any, node: Any, limit: int = MAX_REF_HOPS) -> Any:
    """``node`` with its chain of local ``$ref``s followed; ``None`` when the chain is external,
    dangling or longer than ``limit`` (a cycle). The one ``deref`` of the generator."""
    if type(node) is dict and "$ref" not in node:
        return node  # an inline node: nothing to follow
    found, target = follow_refs(data, node, limit)
    return target if found else None


def deref_mapping(data: Any, node: Any, limit: int = MAX_REF_HOPS) -> Mapping[str, Any]:
    """:func:`deref` for readers that then look keys up: anything but a resolved mapping (an
    external, dangling or cyclic chain, a boolean schema, no node) reads as ``{}``."""
    target = deref(data, node, limit)
    return target if is_mapping(target) else {}


def ref_component(ref: Any, section: str = "schemas") -> str | None:
    """The component name a ``$ref`` of the form ``#/components/<section>/<name>`` names."""
    pointer = ref_pointer(ref)
    tokens = pointer_tokens(pointer) if pointer is not None else None
    if tokens is not None and len(tokens) == 3 and tokens[:2] == ("components", section):
        return tokens[2]
    return None


def overlay_target(pointer: str, data: Any = None) -> str:
    """An Overlay 1.0 target (RFC 9535 JSONPath in the bracket form) selecting the node at an
    RFC 6901 ``pointer``: name selectors (``$['paths']['/items']['get']``), and an index
    selector (``[12]``) where ``data`` shows the token steps into an array (a name selector
    selects nothing there). Without ``data`` every token is a name."""
    tokens = pointer_tokens(pointer) or ()
    node, parts = data, []
    for token in tokens:
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            parts.append(f"[{token}]")
            node = node[int(token)]
            continue
        parts.append("['" + token.replace("\\", "\\\\").replace("'", "\\'") + "']")
        node = node.get(token) if isinstance(node, dict) else None
    return "$" + "".join(parts)


def resolve_pointer(data: Any, pointer: str) -> tuple[bool, Any]:
    """Resolve an RFC 6901 pointer; returns ``(found, value)``."""
    tokens = pointer_tokens(pointer)
    if tokens is None:
        return False, None
    node = data
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node
