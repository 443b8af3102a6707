"""Models imported when first needed: tables (``models.PAGE_MODELS``), one model named by where it
lives (:class:`LazyModel`, a listing envelope's item model) and lazy module attributes
(:func:`lazy_attributes`, the item names a listing's models module re-exports).

Why: a generated package splits its models per operation so that calling one operation imports
and builds only that operation's models. A plain ``{operationId: model}`` dict would import every
operation's models the moment it is built; :class:`LazyModels` holds where each model lives and
imports it when a key is looked up. Iterating the keys imports nothing; ``values()`` / ``items()``
import every model, as the caller asked.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["LazyModel", "LazyModels", "lazy_attributes"]


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


class LazyModel:
    """A model class named by where it lives, imported when it is first needed.

    Why: a listing's item model can reach hundreds of classes (Stripe's ``Customer`` reaches
    about 680 through the customer <-> charge cycle), and importing and building them is most of
    a first call. An envelope declares ``items: list[Annotated[Any, LazyModel(...)]]`` instead of
    ``list[Customer]``: the envelope class is made without importing the item module, and
    pydantic asks this marker for the item schema only when the envelope's own schema is built
    (``model_validate``, ``model_json_schema``, a FastAPI ``response_model``), which then is
    exactly the schema of ``list[Customer]``. The client validates a page's envelope without its
    items and each item when first read (``_runtime/page_items.py``).

    ``module`` is relative to ``package`` (``".._items._shared_x"`` from ``"NAME._models"``).
    """

    __slots__ = ("_model", "module", "name", "package")

    def __init__(self, package: str | None, module: str, name: str) -> None:
        self.package = package
        self.module = module
        self.name = name
        self._model: Any = None

    def resolve(self) -> Any:
        """The model class (its module is imported on the first call)."""
        model = self._model
        if model is None:
            model = getattr(importlib.import_module(self.module, self.package), self.name)
            self._model = model
        return model

    @property
    def loaded(self) -> bool:
        """Whether the model's module has been imported through this reference."""
        return self._model is not None

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return handler.generate_schema(self.resolve())

    def __repr__(self) -> str:
        return f"LazyModel({self.module!r}, {self.name!r})"


def lazy_attributes(module: str, where: Mapping[str, tuple[str, str]]) -> Any:
    """A module ``__getattr__`` (PEP 562) that imports each name of ``where`` on first access.

    ``where`` maps a name to ``(module relative to the package of module, attribute)``. A
    listing's models module re-exports its item models this way, so importing it for the
    envelope imports no item module. The value is then kept in the module like an import.
    """
    package = module.rpartition(".")[0] or None
    table = dict(where)

    def __getattr__(name: str) -> Any:
        try:
            target, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(target, package), attribute)
        setattr(sys.modules[module], name, value)
        return value

    return __getattr__
