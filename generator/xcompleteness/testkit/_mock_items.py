"""Deterministic items from an item schema, for ``xcompleteness mock``.

Every value comes from a ``random.Random`` seeded with (seed, operation, index), so the same plan
serves the same items on every run and every machine. Values follow the schema where it says
something a client checks: types, enums, ``const``, formats (date-time, date, email, uri, uuid),
string lengths, numeric bounds, required properties, nullable unions. The item's id (the
contract's ``id`` pointer) is set to a unique, sortable value: ``PREFIX-00000`` ... (or 1, 2 ...
for an integer id), so "id ascending" orderings hold.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping
from typing import Any

from xcompleteness.document import deref_mapping, pointer_tokens

MAX_DEPTH = 6


class ItemFactory:
    """Items of one listing: ``make(index)`` is a pure function of (seed, operation, index)."""

    def __init__(
        self,
        schema: Any,
        models: Mapping[str, Any],
        *,
        operation: str,
        seed: int,
        id_pointer: str | None,
        prefix: str,
        set_id: bool = True,
    ) -> None:
        self.schema = schema if isinstance(schema, Mapping) else {}
        self.models = models
        self._doc = {"components": {"schemas": models}}
        """What the schemas' ``#/components/schemas/<class>`` references resolve in."""
        self.operation = operation
        self.seed = seed
        self.id_tokens = _tokens(id_pointer or "/id")
        self.prefix = prefix
        self.integer_id = self._id_schema_type() == "integer"
        self.set_id = set_id

    def item_id(self, index: int, tag: str = "") -> Any:
        if self.integer_id:
            return index + 1 if not tag else 10_000_000 + index
        return f"{self.prefix}-{tag}{index:05d}"

    def make(self, index: int, tag: str = "") -> Any:
        rng = random.Random(f"{self.seed}:{self.operation}:{tag}{index}")
        item = self._value(self.schema, rng, index, 0, "item")
        if not isinstance(item, dict):
            item = {}
        if self.set_id:
            _set(item, self.id_tokens, self.item_id(index, tag))
        return item

    # -- schema walk -------------------------------------------------------------------------

    def _id_schema_type(self) -> str | None:
        node: Any = deref_mapping(self._doc, self.schema)
        for token in self.id_tokens:
            node = deref_mapping(self._doc, self._merged(node).get("properties", {}).get(token))
        kind = node.get("type") if isinstance(node, Mapping) else None
        return kind if isinstance(kind, str) else None

    def _merged(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        parts = schema.get("allOf")
        if not isinstance(parts, list):
            return schema
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        props: dict[str, Any] = dict(merged.get("properties") or {})
        required = list(merged.get("required") or [])
        for part in parts:
            sub = self._merged(deref_mapping(self._doc, part))
            props.update(sub.get("properties") or {})
            required.extend(sub.get("required") or [])
            if "type" in sub and "type" not in merged:
                merged["type"] = sub["type"]
        merged["properties"] = props
        merged["required"] = required
        return merged

    def _value(self, schema: Any, rng: random.Random, index: int, depth: int, name: str) -> Any:
        node = self._merged(deref_mapping(self._doc, schema))
        if "const" in node:
            return node["const"]
        if isinstance(node.get("enum"), list) and node["enum"]:
            choices = [v for v in node["enum"] if v is not None] or node["enum"]
            return rng.choice(choices)
        for key in ("oneOf", "anyOf"):
            options = node.get(key)
            if isinstance(options, list) and options:
                usable = [o for o in options if deref_mapping(self._doc, o).get("type") != "null"]
                return self._value((usable or options)[0], rng, index, depth + 1, name)
        kind = node.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        if kind is None:
            kind = "object" if "properties" in node else "string" if node else None
        if depth > MAX_DEPTH and kind in ("object", "array"):
            return {} if kind == "object" else []
        if kind == "object":
            out: dict[str, Any] = {}
            for prop, sub in (node.get("properties") or {}).items():
                out[str(prop)] = self._value(sub, rng, index, depth + 1, str(prop))
            return out
        if kind == "array":
            low = int(node.get("minItems") or 0)
            high = max(low, min(int(node.get("maxItems") or 2), 2))
            return [
                self._value(node.get("items"), rng, index, depth + 1, name)
                for _ in range(rng.randint(low, high))
            ]
        if kind == "integer":
            low, high = _bounds(node, 0, 1000)
            return rng.randint(int(low), int(high))
        if kind == "number":
            low, high = _bounds(node, 0, 1000)
            return round(rng.uniform(low, high), 3)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "string":
            return _string(node, rng, index, name)
        return None


def _bounds(node: Mapping[str, Any], low: float, high: float) -> tuple[float, float]:
    lo = node.get("minimum", node.get("exclusiveMinimum", low))
    hi = node.get("maximum", node.get("exclusiveMaximum", max(high, lo if _num(lo) else high)))
    lo = lo + 1 if "exclusiveMinimum" in node and _num(lo) else lo
    hi = hi - 1 if "exclusiveMaximum" in node and _num(hi) else hi
    lo = lo if _num(lo) else low
    hi = hi if _num(hi) and hi >= lo else lo + 1000
    return lo, hi


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _string(node: Mapping[str, Any], rng: random.Random, index: int, name: str) -> str:
    fmt = node.get("format")
    if fmt == "date-time":
        return f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}T{index % 24:02d}:00:00Z"
    if fmt == "date":
        return f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}"
    if fmt == "email":
        return f"user{index}@example.com"
    if fmt in ("uri", "url"):
        return f"https://example.com/{name}/{index}"
    if fmt == "uuid":
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    low = int(node.get("minLength") or 0)
    high = node.get("maxLength")
    text = f"{name}-{index}-{rng.randint(0, 9999)}"
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if isinstance(high, int) and len(text) > high:
        text = text[: max(high, low)]
    return text


def _tokens(pointer: str) -> tuple[str, ...]:
    tokens = pointer_tokens(pointer)
    return ("id",) if not tokens else tokens


def _set(item: dict[str, Any], tokens: tuple[str, ...], value: Any) -> None:
    node = item
    for token in tokens[:-1]:
        child = node.get(token)
        if not isinstance(child, dict):
            child = node[token] = {}
        node = child
    if tokens:
        node[tokens[-1]] = value
