"""Introspect a generated page model."""

from __future__ import annotations

import typing
from typing import Any

__all__ = ["item_class"]


def item_class(page: Any) -> Any:
    """The item type of a page model. A listing envelope names its item model lazily
    (``list[Annotated[Any, ITEM_MODEL]]``, docs/client.md#what-is-validated-when); the marker
    (the package's own ``_runtime.lazy.LazyModel``) is resolved here, so this imports the item
    module."""
    (element,) = typing.get_args(page.model_fields["items"].annotation)
    for meta in getattr(element, "__metadata__", ()):
        if hasattr(meta, "resolve"):
            return meta.resolve()
    return element
