"""The page-size parameter of an unpaged listing, as the spec states it.

An operation with a size parameter (``limit``, ``max_results``...) and no position parameter
answers once, at most that many items: ``audit`` drafts it ``pagination: {style: none,
request: {size: NAME}, max-page-size: N}`` (docs/vocabulary.md), and the cap N comes from what
the parameter says here. Nothing is inferred: the schema's ``maximum`` and ``default`` as
written (Swagger 2 puts them on the parameter itself), its description and its types, and the
names of the operation's other parameters that read like a page position (``SkipPages``,
``startAt``, ``pageToken``) although no paging rule took them: the draft then asks whether the
listing pages by one of them instead of answering once.
"""

from __future__ import annotations

from dataclasses import dataclass

from xcompleteness.detect._schema_walk import SchemaWalker
from xcompleteness.detect._words import word_list
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
    positions: tuple[str, ...] = ()
    """Other query or header parameters whose name or description reads like a page position."""
    minimum: int | None = None
    """The schema's ``minimum``: the API refuses a smaller size (None: not said, or below 1)."""


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
        minimum=_count(node.get("minimum")),
        positions=tuple(
            p.name
            for p in params
            if p.location in ("query", "header") and p.name != name and _reads_as_position(p)
        ),
    )


# words that name where a page starts, in a parameter's name or description; a sibling of the
# size parameter holding one may be the position the paging rules did not recognise
_POSITION_NAME_WORDS = frozenset(
    {
        "page",
        "pages",
        "skip",
        "offset",
        "start",
        "cursor",
        "token",
        "marker",
        "continuation",
        "after",
        "before",
        "next",
        "position",
    }
)
_POSITION_PROSE_WORDS = frozenset(
    {"skip", "offset", "cursor", "continuation", "page", "pages", "paging", "pagination"}
)


def _reads_as_position(p: Parameter) -> bool:
    if _POSITION_NAME_WORDS.intersection(word_list(p.name)):
        return True
    text = p.get("description")
    return isinstance(text, str) and bool(_POSITION_PROSE_WORDS.intersection(word_list(text)))


def _count(value: object) -> int | None:
    """A positive whole number as written (``100``, ``100.0``, ``"100"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and value > 0 else None
