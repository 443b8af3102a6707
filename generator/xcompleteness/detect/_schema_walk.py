"""Schema walking for the list-likeness scan: local ``$ref`` resolution and merged properties,
cycle-safe.

Audit reads response schemas of specs it has never seen (GitHub's ~10 MB description, thousands
of real APIs). Every helper here is bounded: ``$ref`` chains are followed by the one resolver
(:func:`xcompleteness.document.deref_at`: a cycle, a dangling or an external reference yields
nothing), combinator nesting (``allOf``/``anyOf``/``oneOf``) is depth-limited, and resolutions
are cached per reference so a spec with 1,000 operations sharing a few schemas stays fast.
External references (other files, URLs) are never followed: audit reports what the document
itself says.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document import deref_at, resolve_pointer

__all__ = ["Located", "SchemaWalker"]


_MAX_DEPTH = 8
_MISSING = object()
_NO_TYPES: frozenset[str] = frozenset()

Located = tuple[Any, str]
"""A schema node together with the JSON pointer where it sits in the document."""

_T = TypeVar("_T")


def _one_type(node: Any) -> str | None:
    """The ``type`` of a schema that says one type and has nothing to follow or merge (no
    ``$ref``, ``allOf``, ``anyOf``, ``oneOf``): its :meth:`SchemaWalker.types` told without
    the walk (``null`` aside). None for any other node."""
    if type(node) is not dict:
        return None
    declared = node.get("type")
    if (
        type(declared) is str
        and "$ref" not in node
        and "allOf" not in node
        and "anyOf" not in node
        and "oneOf" not in node
    ):
        return declared
    return None


class SchemaWalker:
    """Resolves local ``$ref``s in one document and answers shape questions about schemas."""

    def __init__(self, document: Any, *, memo: bool = True):
        self._doc = document
        self.memo = memo
        """Whether :meth:`remembered` keeps answers (off: every question is computed afresh,
        the reference the memoised scan is compared with in tests)."""
        self._memo: dict[Hashable, tuple[Any, Any]] = {}
        self._cache: dict[str, Located | None] = {}
        # Shape answers per resolved node (its id is stable: the walker holds the document).
        # Shared component schemas are asked about once per operation that reaches them;
        # callers get copies, so nothing they do reaches the cache.
        self._types: dict[tuple[int, int], set[str]] = {}
        self._props: dict[tuple[int, str, int], dict[str, Located]] = {}
        self._arrays: dict[tuple[int, str], tuple[str, ...]] = {}
        self._facts: dict[str, Any] = {}

    # -- references -------------------------------------------------------------------------

    def resolve(self, node: Any, pointer: str) -> Located:
        """``(node, pointer)`` with its chain of local ``$ref``s followed by the one resolver
        (:func:`xcompleteness.document.deref_at`), cached per reference text; a cycle, a dangling
        or an external reference yields a fresh ``{}`` at ``pointer``."""
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            return node, pointer
        ref = node["$ref"]
        if ref not in self._cache:
            self._cache[ref] = deref_at(self._doc, node, pointer)
        found = self._cache[ref]
        return found if found is not None else ({}, pointer)

    def node_at(self, pointer: str) -> Located:
        """The node at ``pointer`` in the document with its local ``$ref``s followed (a fresh
        ``{}`` when nothing is there): what a signal's pointer names (a header, a body field)."""
        found, node = resolve_pointer(self._doc, pointer)
        return self.resolve(node if found else {}, pointer)

    def fact(self, name: str, compute: Callable[[Any], Any]) -> Any:
        """A document-wide fact (``compute(document)``), computed once per walker."""
        if name not in self._facts:
            self._facts[name] = compute(self._doc)
        return self._facts[name]

    def remembered(self, key: Hashable, anchor: Any, compute: Callable[[], _T]) -> _T:
        """``compute()``, computed once per ``key`` for the scan's pure questions about shared
        parts of the document (the shape of a component schema many operations answer).

        ``key`` may name a node by ``id``; ``anchor`` is that node, kept with the answer and
        compared by identity, so a key whose id was reused by another object never answers.
        Callers hand out copies of mutable answers."""
        if not self.memo:
            return compute()
        hit = self._memo.get(key)
        if hit is not None and hit[0] is anchor:
            return hit[1]
        value = compute()
        self._memo[key] = (anchor, value)
        return value

    # -- shapes -----------------------------------------------------------------------------

    def types(self, node: Any, pointer: str = "", depth: int = 0) -> set[str]:
        """Every JSON type a schema may have (combinators included), ``{}`` when it says none."""
        declared = _one_type(node)
        if declared is not None and depth <= _MAX_DEPTH:
            return set() if declared == "null" else {declared}
        return set(self._kept_types(node, pointer, depth))

    def _kept_types(self, node: Any, pointer: str, depth: int) -> frozenset[str] | set[str]:
        """:meth:`types` as kept (never handed to callers: they get copies)."""
        node, pointer = self.resolve(node, pointer)
        if not isinstance(node, dict) or not node or depth > _MAX_DEPTH:
            return _NO_TYPES  # (an empty dict may be resolve's fresh stand-in: never cached by id)
        key = (id(node), depth)
        cached = self._types.get(key)
        if cached is None:
            cached = self._types[key] = self._types_of(node, pointer, depth)
        return cached

    def _types_of(self, node: dict[str, Any], pointer: str, depth: int) -> set[str]:
        out: set[str] = set()
        declared = node.get("type")
        if isinstance(declared, str):
            out.add(declared)
        elif isinstance(declared, list):
            out.update(t for t in declared if isinstance(t, str))
        if not out:
            if "items" in node:
                out.add("array")
            if "properties" in node:
                out.add("object")
        for comb in ("allOf", "anyOf", "oneOf"):
            members = node.get(comb)
            if isinstance(members, list):
                for i, sub in enumerate(members):
                    out |= self.types(sub, pointer_join(pointer, comb, i), depth + 1)
        out.discard("null")
        return out

    def is_array(self, node: Any, pointer: str = "") -> bool:
        declared = _one_type(node)
        if declared is not None:
            return declared == "array"
        return "array" in self._kept_types(node, pointer, 0)

    def array_items(self, node: Any, pointer: str, depth: int = 0) -> Located | None:
        """The ``items`` schema of an array schema (looking through combinators)."""
        node, pointer = self.resolve(node, pointer)
        if not isinstance(node, dict) or depth > _MAX_DEPTH:
            return None
        if "items" in node and isinstance(node["items"], (dict, bool)):
            return node["items"], pointer_join(pointer, "items")
        for comb in ("allOf", "anyOf", "oneOf"):
            members = node.get(comb)
            if isinstance(members, list):
                for i, sub in enumerate(members):
                    found = self.array_items(sub, pointer_join(pointer, comb, i), depth + 1)
                    if found is not None:
                        return found
        return None

    def properties(self, node: Any, pointer: str = "", depth: int = 0) -> dict[str, Located]:
        """Property name -> (schema, pointer), merged over ``allOf``/``anyOf``/``oneOf``."""
        node, pointer = self.resolve(node, pointer)
        if not isinstance(node, dict) or not node or depth > _MAX_DEPTH:
            return {}
        key = (id(node), pointer, depth)
        cached = self._props.get(key)
        if cached is None:
            cached = self._props[key] = self._properties_of(node, pointer, depth)
        return dict(cached)

    def array_properties(self, node: Any, pointer: str = "") -> tuple[str, ...]:
        """The names of :meth:`properties` whose schema may be an array (:meth:`is_array`), in
        order: asked of one schema by every operation answering it, so kept per node."""
        node, pointer = self.resolve(node, pointer)
        if not isinstance(node, dict) or not node:
            return ()
        key = (id(node), pointer)
        cached = self._arrays.get(key)
        if cached is None:
            props = self.properties(node, pointer)
            cached = tuple(n for n, (s, p) in props.items() if self.is_array(s, p))
            self._arrays[key] = cached
        return cached

    def _properties_of(self, node: dict[str, Any], pointer: str, depth: int) -> dict[str, Located]:
        out: dict[str, Located] = {}
        props = node.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                if isinstance(name, str):
                    out[name] = (sub, pointer_join(pointer, "properties", name))
        for comb in ("allOf", "anyOf", "oneOf"):
            members = node.get(comb)
            if isinstance(members, list):
                for i, sub in enumerate(members):
                    merged = self.properties(sub, pointer_join(pointer, comb, i), depth + 1)
                    for name, located in merged.items():
                        out.setdefault(name, located)
        return out
