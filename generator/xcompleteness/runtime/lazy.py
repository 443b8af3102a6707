"""Tables of models that import each model on first lookup (``models.PAGE_MODELS``).

Why: a generated package splits its models per operation so that calling one operation imports
and builds only that operation's models. A plain ``{operationId: model}`` dict would import every
operation's models the moment it is built; :class:`LazyModels` holds where each model lives and
imports it when a key is looked up. Iterating the keys imports nothing; ``values()`` / ``items()``
import every model, as the caller asked.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["LazyModels"]


class LazyModels(Mapping[str, Any]):
    """A read-only mapping key -> class, each class imported from its module on first lookup.

    ``where`` maps each key to ``(module, attribute)``, ``module`` relative to ``package``
    (``"._models.list_pets"``).
    """

    __slots__ = ("_loaded", "_package", "_where")

    def __init__(self, package: str | None, where: Mapping[str, tuple[str, str]]) -> None:
        self._package = package
        self._where = dict(where)
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        try:
            return self._loaded[key]
        except KeyError:
            pass
        module, attribute = self._where[key]  # KeyError for an unknown key, like a dict
        value = getattr(importlib.import_module(module, self._package), attribute)
        self._loaded[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def __repr__(self) -> str:
        return f"LazyModels({sorted(self._where)!r})"
