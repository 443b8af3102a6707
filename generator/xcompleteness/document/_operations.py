"""The one HTTP-methods table and the one walk over ``paths`` (raw rows, in document order).

:func:`xcompleteness.document.operations` builds the typed views over these rows; the raw
iterators stay for the readers that walk the document before it is known to be valid (the audit's
list-likeness scan resolves ``$ref`` path items through its own schema walker).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from xcompleteness.diagnostics import pointer_join

__all__ = ["Deref", "HTTP_METHODS", "iter_operations", "iter_path_items"]

HTTP_METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
"""The operation keys of an OpenAPI path item, in the order operations are visited: the one copy."""

Deref = Callable[[Any, str], tuple[Any, str]]
"""``deref(node, pointer) -> (node, pointer)``: how a caller resolves a ``$ref`` path item."""


def iter_path_items(
    document: Any, deref: Deref | None = None
) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    """Yield ``(path, path item, pointer)`` for every path item under ``paths``, in document order.

    ``deref(item, pointer) -> (item, pointer)`` resolves a path item that is a ``$ref`` (the
    audit's schema walker); without it a ``$ref`` path item is read as it stands. Non-mapping path
    items are skipped silently (the OpenAPI validator reports them). ``pointer`` is the RFC 6901
    pointer of the item under ``/paths``, also when ``deref`` followed a reference.
    """
    data = getattr(document, "data", document)
    paths = data.get("paths") if isinstance(data, Mapping) else None
    if not isinstance(paths, Mapping):
        return
    for path, item in paths.items():
        pointer = pointer_join("", "paths", path)
        if deref is not None:
            item, _ = deref(item, pointer)
        if isinstance(item, Mapping):
            yield str(path), item, pointer


def iter_operations(
    document: Any, deref: Deref | None = None
) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """Yield ``(path, method, operation, pointer)`` for every operation under ``paths``.

    Order is the document's for paths, :data:`HTTP_METHODS` within a path. Non-mapping path items
    and operations are skipped silently (the OpenAPI validator reports them). ``pointer`` is the
    RFC 6901 pointer of the operation; ``deref`` as in :func:`iter_path_items`.
    """
    for path, item, item_pointer in iter_path_items(document, deref):
        for method in HTTP_METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                yield path, method, operation, pointer_join(item_pointer, method)
