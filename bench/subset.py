"""A smaller description cut from one real one (``bench_growth.py``): every k-th path item.

``subset(data, k)`` keeps the path items at positions 0, k, 2k, ... of the sorted path keys (and
the same of ``webhooks`` / ``x-webhooks``, whose items are path items too), everything else at
the top level as it is, and of ``components`` exactly what the kept parts reach through
``$ref`` (and discriminator ``mapping`` values), followed transitively, plus every security
scheme (named by ``security``, not by ``$ref``). A ``$ref`` that does not point into
``components`` is refused (``ValueError``): the cut could leave it dangling. ``written(data,
like=text)`` spells the result the way the source text is spelled (one line, or indented by 2).
"""

from __future__ import annotations

import json
from typing import Any

from xcompleteness.document import pointer_tokens, ref_pointer

PATH_ITEM_MAPS = ("paths", "webhooks", "x-webhooks")


def _tokens(ref: str) -> tuple[str, ...]:
    """The tokens of a local reference, read as check reads it (the one reading)."""
    pointer = ref_pointer(ref)
    return (pointer_tokens(pointer) if pointer is not None else None) or ()


def _refs(node: Any, out: list[str]) -> None:
    """Every reference text under ``node``: ``$ref`` values and discriminator mappings."""
    stack = [node]
    while stack:
        here = stack.pop()
        if isinstance(here, dict):
            ref = here.get("$ref")
            if isinstance(ref, str):
                out.append(ref)
            mapping = here.get("mapping")
            if isinstance(here.get("propertyName"), str) and isinstance(mapping, dict):
                out.extend(v for v in mapping.values() if isinstance(v, str) and "/" in v)
            stack.extend(here.values())
        elif isinstance(here, list):
            stack.extend(here)


def component_closure(data: dict[str, Any], roots: list[Any]) -> dict[str, set[str]]:
    """The components (kind -> names) ``roots`` reach through references, transitively."""
    components = data.get("components") or {}
    reached: dict[str, set[str]] = {}
    pending: list[str] = []
    for root in roots:
        _refs(root, pending)
    while pending:
        ref = pending.pop()
        tokens = _tokens(ref) if ref.startswith("#/") else []
        if len(tokens) < 3 or tokens[0] != "components":
            raise ValueError(f"a reference outside components: {ref!r}")
        kind, name = tokens[1], tokens[2]
        if name in reached.setdefault(kind, set()):
            continue
        reached[kind].add(name)
        target = (components.get(kind) or {}).get(name)
        if target is None:
            raise ValueError(f"a reference to a missing component: {ref!r}")
        _refs(target, pending)
    return reached


def subset(data: dict[str, Any], k: int) -> dict[str, Any]:
    """Every k-th path item (sorted keys) of ``data`` and the components it reaches."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in PATH_ITEM_MAPS and isinstance(value, dict):
            value = {p: value[p] for i, p in enumerate(sorted(value)) if i % k == 0}
        out[key] = value
    if "components" not in data:
        return out
    roots = [v for key, v in out.items() if key != "components"]
    reached = component_closure(data, roots)
    components: dict[str, Any] = {}
    for kind, members in data["components"].items():
        if kind == "securitySchemes":
            components[kind] = members
        elif kind in reached:
            components[kind] = {n: v for n, v in members.items() if n in reached[kind]}
    out["components"] = components
    return out


def written(data: dict[str, Any], like: str) -> str:
    """``data`` as JSON text spelled like ``like``: one line if it is, else indented by 2."""
    if "\n" in like.strip():
        return json.dumps(data, indent=2, ensure_ascii=False) + (
            "\n" if like.endswith("\n") else ""
        )
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def operations(data: dict[str, Any]) -> int:
    """Operations of a description: the HTTP-method keys of its path items."""
    methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
    paths = data.get("paths") or {}
    return sum(1 for item in paths.values() if isinstance(item, dict) for m in item if m in methods)
