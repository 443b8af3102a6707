"""JSON-able views of results and the ids inside items, shared by the tool layer and ``decide``.

Why one module: the tool envelope, the MCP-side evidence and the decision policy all read ids out
of items (dicts or pydantic models) by an RFC 6901 pointer; if they disagreed about what an id is,
evidence minted by one could be refused (or worse, accepted) by another. Standard library only.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

__all__ = ["get", "id_at", "id_text", "item_id", "plain", "pointer_tokens"]

_SCALARS = (str, int, bool)


def plain(obj: Any) -> Any:
    """JSON-able form of pydantic models, dataclasses, enums and containers."""
    if obj is None or type(obj) in _SCALARS:
        return obj
    if type(obj) is dict:
        return {str(k): plain(v) for k, v in obj.items()}
    if type(obj) in (list, tuple):
        return [plain(v) for v in obj]
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", by_alias=True, exclude_none=False)
    if callable(getattr(obj, "to_dict", None)):
        return plain(obj.to_dict())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return plain(dataclasses.asdict(obj))
    if isinstance(obj, Mapping):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if hasattr(obj, "value") and isinstance(obj.value, str):
        return obj.value
    return obj


def get(obj: Any, key: str, default: Any = None) -> Any:
    """``obj[key]`` for mappings, ``obj.key`` otherwise (results come in both shapes)."""
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def escape_token(token: str) -> str:
    """One RFC 6901 reference token, escaped (``~`` -> ``~0``, ``/`` -> ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """One RFC 6901 reference token, unescaped (``~1`` -> ``/`` first, then ``~0`` -> ``~``)."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer_tokens(pointer: str) -> tuple[str, ...]:
    """The unescaped reference tokens of an RFC 6901 pointer (parse once, resolve many)."""
    return tuple(unescape_token(t) for t in pointer.split("/")[1:])


def id_at(item: Any, tokens: tuple[str, ...]) -> str | None:
    """The id at pre-parsed ``tokens`` inside one item, as a string.

    ``None`` when absent, null, a container or a boolean: none of those names one object.
    """
    node = item if isinstance(item, (Mapping, list)) else plain(item)
    for token in tokens:
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    if node is None or isinstance(node, (Mapping, list, bool)):
        return None
    return id_text(node)


def id_text(value: Any) -> str:
    """One id as the text evidence compares: a whole number typed ``number`` in the spec (the
    item model reads Postmark's ``TemplateId: 1001`` as ``1001.0``) is written as the API sent it
    and as a caller names it (``1001``), never ``1001.0``."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return str(value)


def item_id(item: Any, pointer: str) -> str | None:
    """The id at JSON pointer ``pointer`` inside one item, as a string (None when absent)."""
    return id_at(item, pointer_tokens(pointer))
