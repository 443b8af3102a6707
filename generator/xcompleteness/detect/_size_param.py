"""The page-size parameter of an unpaged listing, as the spec states it.

An operation with a size parameter (``limit``, ``max_results``...) and no position parameter
answers once, at most that many items: ``audit`` drafts it ``pagination: {style: none,
request: {size: NAME}, max-page-size: N}`` (docs/vocabulary.md), and the cap N comes from what
the parameter says here. Nothing is inferred: the schema's ``maximum`` and ``default`` as
written (Swagger 2 puts them on the parameter itself), its description and its types.
"""

from __future__ import annotations

from dataclasses import dataclass

from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.document import Parameter

__all__ = ["SizeParam", "size_param"]


@dataclass(frozen=True)
class SizeParam:
    """What the spec says of a size parameter (None: not said, or not a positive integer)."""

    name: str
    maximum: int | None
    default: int | None
    description: str
    types: frozenset[str]


def size_param(
    params: tuple[Parameter, ...], name: str | None, walker: SchemaWalker
) -> SizeParam | None:
    """The query parameter ``name`` as :class:`SizeParam` (None when there is none)."""
    param = next((p for p in params if p.location == "query" and p.name == name), None)
    if param is None or name is None:
        return None
    raw = param.schema.raw if param.schema is not None else param.node
    node, pointer = walker.resolve(raw, param.pointer)
    node = node if isinstance(node, dict) else {}
    text = param.get("description")
    return SizeParam(
        name=name,
        maximum=_count(node.get("maximum")),
        default=_count(node.get("default")),
        description=text if isinstance(text, str) else "",
        types=frozenset(walker.types(raw, pointer)),
    )


def _count(value: object) -> int | None:
    """A positive whole number as written (``100``, ``100.0``, ``"100"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and value > 0 else None
