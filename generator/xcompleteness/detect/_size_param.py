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

from xcompleteness.detect import _words as sig
from xcompleteness.detect._schema_walk import Located, SchemaWalker
from xcompleteness.detect._size_words import size_by_words
from xcompleteness.detect._words import word_list
from xcompleteness.document import Operation, Parameter
from xcompleteness.runtime.contract import BODY_LOCATION

__all__ = ["SizeParam", "body_size", "size_param"]


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


def body_size(op: Operation, walker: SchemaWalker) -> str | None:
    """The top-level property of the operation's JSON request body that is a page size by its
    name (``limit``, ``per_page``) or its words (detect/_size_words.py), as the location the
    walk writes (``$request.body#/limit``); None when there is none. A POST search that takes
    ``{"query": ..., "limit": 50}`` answers once, at most that many items."""
    props = _body_properties(op, walker)
    sizes = [name for name, node in props.items() if _sized(name, node, walker)]
    if not sizes:
        return None
    order = {k: i for i, k in enumerate(sig.SIZE_ORDER)}
    return BODY_LOCATION + min(sizes, key=lambda n: order.get(sig.fold(n), len(order)))


def _body_properties(op: Operation, walker: SchemaWalker) -> dict[str, Located]:
    for ref in op.request_schemas():
        return dict(walker.properties(*walker.resolve(ref.raw, ref.pointer)))
    return {}


def _sized(name: str, located: Located, walker: SchemaWalker) -> bool:
    node, pointer = walker.resolve(*located)
    types = walker.types(node, pointer)
    if sig.fold(name) in sig.SIZE_PARAMS:
        return not types or bool(types & {"integer", "number"})
    described = node.get("description") if isinstance(node, dict) else None
    return size_by_words(name, types, described)


def size_param(
    params: tuple[Parameter, ...],
    name: str | None,
    walker: SchemaWalker,
    op: Operation | None = None,
) -> SizeParam | None:
    """The query parameter ``name`` (or, for ``$request.body#/NAME``, the property NAME of
    ``op``'s JSON request body) as :class:`SizeParam` (None when there is none)."""
    if name is not None and name.startswith(BODY_LOCATION) and op is not None:
        return _body_param(params, name, walker, op)
    param = next((p for p in params if p.location == "query" and p.name == name), None)
    if param is None or name is None:
        return None
    raw = param.schema.raw if param.schema is not None else param.node
    node, pointer = walker.resolve(raw, param.pointer)
    types = walker.types(raw, pointer)
    return _size_param(name, node, param.get("description"), types, position_params(params, {name}))


def _size_param(
    name: str, node: object, text: object, types: set[str], positions: tuple[str, ...]
) -> SizeParam:
    """A size parameter from its resolved schema ``node`` (query parameter or body property)."""
    node = node if isinstance(node, dict) else {}
    return SizeParam(
        name=name,
        maximum=_count(node.get("maximum")),
        default=_count(node.get("default")),
        description=text if isinstance(text, str) else "",
        types=frozenset(types),
        minimum=_count(node.get("minimum")),
        positions=positions,
    )


def position_params(params: tuple[Parameter, ...], mapped: set[str]) -> tuple[str, ...]:
    """The query and header parameters outside ``mapped`` whose name or description reads like
    a page position (``startIndex``, ``SkipPages``, a header ``nextToken``)."""
    return tuple(
        p.name
        for p in params
        if p.location in ("query", "header") and p.name not in mapped and _reads_as_position(p)
    )


def _body_param(
    params: tuple[Parameter, ...], name: str, walker: SchemaWalker, op: Operation
) -> SizeParam | None:
    properties = _body_properties(op, walker)
    located = properties.get(name.removeprefix(BODY_LOCATION))
    if located is None:
        return None
    node, pointer = walker.resolve(*located)
    node = node if isinstance(node, dict) else {}
    siblings = tuple(
        other
        for other, (sub, _) in properties.items()
        if BODY_LOCATION + other != name and _words_read_as_position(other, _said(sub))
    )
    types = walker.types(node, pointer)
    return _size_param(name, node, _said(node), types, position_params(params, set()) + siblings)


def _said(node: object) -> object:
    return node.get("description") if isinstance(node, dict) else None


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
    return _words_read_as_position(p.name, p.get("description"))


def _words_read_as_position(name: str, text: object) -> bool:
    """A parameter or body property whose name or description reads like a page position."""
    if _POSITION_NAME_WORDS.intersection(word_list(name)):
        return True
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
