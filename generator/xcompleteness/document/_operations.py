"""The one HTTP-methods table and the one walk over ``paths`` (raw rows, in document order).

:func:`xcompleteness.document.views` builds the typed views over these rows; the raw iterators
stay for the readers that walk the document before it is known to be valid. Every reader sees
the same operations: a path item that is a local ``$ref`` is followed through the one resolver
(:func:`xcompleteness.document.deref_at`, bounded); one whose ``$ref`` is external, dangling or
a cycle is skipped (load's ref policy reports those), never raised.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from xcompleteness.diagnostics import pointer_join
from xcompleteness.document._refs import deref_at

__all__ = ["HTTP_METHODS", "iter_operations", "iter_path_items", "operation_nodes"]

HTTP_METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
"""The operation keys of an OpenAPI path item, in the order operations are visited: the one copy."""


def iter_path_items(document: Any) -> Iterator[tuple[str, Mapping[str, Any], str]]:
    """Yield ``(path, path item, pointer)`` for every path item under ``paths``, in document order.

    A path item that is a ``$ref`` is read where its chain of local references leads; a broken
    one (external, dangling, cyclic) and non-mapping path items are skipped silently (the
    validator and load's ref policy report them). ``pointer`` is the RFC 6901 pointer of the item
    under ``/paths``, also when a reference was followed.
    """
    data = getattr(document, "data", document)
    paths = data.get("paths") if isinstance(data, Mapping) else None
    if not isinstance(paths, Mapping):
        return
    for path, raw in paths.items():
        pointer = pointer_join("", "paths", path)
        located = deref_at(data, raw, pointer)
        item = located[0] if located is not None else None
        if isinstance(item, Mapping):
            yield str(path), item, pointer


def iter_operations(document: Any) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """Yield ``(path, method, operation, pointer)`` for every operation under ``paths``.

    Order is the document's for paths, :data:`HTTP_METHODS` within a path. Non-mapping path items
    and operations are skipped silently (the OpenAPI validator reports them). ``pointer`` is the
    RFC 6901 pointer of the operation (under ``/paths``, also in a ``$ref`` path item).
    """
    for path, item, item_pointer in iter_path_items(document):
        for method in HTTP_METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                yield path, method, operation, pointer_join(item_pointer, method)


def operation_nodes(document: Any) -> Iterator[tuple[Mapping[str, Any], str]]:
    """``(operation, pointer)`` for every operation under ``paths``, as :func:`iter_operations`
    yields them (same operations, order and pointers); read from the document's typed views
    when it carries them (a loaded ``SourceDoc``: the front pipeline builds them anyway), so a
    stage that only needs the operation objects does not walk ``paths`` again."""
    views = getattr(document, "views", None)
    if views is not None:
        for op in views.operations:
            yield op.node, op.pointer
        return
    for _path, _method, operation, pointer in iter_operations(document):
        yield operation, pointer
