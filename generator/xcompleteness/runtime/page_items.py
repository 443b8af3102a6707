"""The items of a page from ``page()``, validated against their model when first read.

Why: the first call of a generated client is dominated by its item model, not by the wire. On
Stripe's description ``Customer`` reaches about 680 pydantic classes through the
customer <-> charge cycle; importing them and building their validators cost ~0.7 s of a ~1 s
first ``page()``, while the envelope that says whether the listing is complete costs
milliseconds. So ``page()`` (with lenient items, the default) draws the line where the contract
ends:

- **at ``page()``**: the whole envelope except its items, through the envelope model itself with
  ``items: list[Any]`` (:func:`items_deferred`): ``complete``, ``incomplete_reasons`` (declared
  codes, typed details), ``next_cursor``, ``scope``, ``page`` (``returned`` against the number of
  items), ``work``, the server's ``warnings``, ``evidence`` and the invariants between them. A
  broken envelope fails ``page()`` at once, exactly as before. The items are a list of the
  right length whose elements are still the JSON values received.
- **when the items or the warnings are first read** (any element access, iteration, ``in``,
  comparison, ``repr``, copy, ``model_dump``): every item of the page is validated against the
  item model (importing and building it then). A valid item becomes its model; one that does not
  match is kept as received and ``ITEM_SCHEMA_MISMATCH`` is added to ``warnings``, at the same
  position and with the same details an eager ``page()`` gave. Reading ``warnings`` (even its
  ``len``) validates the items first, so no read ever sees the warnings without the item
  mismatches. Item mismatches never change ``complete`` (they are warnings), which is why this
  part may wait.

``strict_items=True`` makes items part of the contract (a mismatch is a CONTRACT_VIOLATION that
refuses the page), so a strict ``page()`` validates every item before it returns.

Standard library and pydantic only: copied verbatim into generated packages.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from .envelope import Envelope, Warning, item_mismatch_warning
from .walk_results import MAX_ITEM_WARNINGS

__all__ = ["DeferredItems", "DeferredWarnings", "deferred_page", "items_deferred"]

_DEFERRED: dict[type[Envelope], type[Envelope]] = {}
_DEFERRED_LOCK = threading.Lock()


def items_deferred(model: type[Envelope]) -> type[Envelope]:
    """``model`` with ``items: list[Any]``: every other field, validator and invariant of the
    envelope, and nothing of the item model (made once per envelope class).

    It subclasses ``model`` under the same name, so its validation errors read exactly like the
    envelope's own; its schema never touches the item model, so building it imports nothing.
    """
    found = _DEFERRED.get(model)
    if found is not None:
        return found
    with _DEFERRED_LOCK:
        found = _DEFERRED.get(model)
        if found is None:
            namespace = {
                "__module__": model.__module__,
                "__qualname__": model.__qualname__,
                "__doc__": model.__doc__,
                "__annotations__": {"items": list[Any]},
            }
            metaclass: Any = type(model)
            found = metaclass(model.__name__, (model,), namespace)
            _DEFERRED[model] = found
    return found


class _Pending:
    """What the two lists of one page share: the raw items and how to validate them."""

    __slots__ = ("done", "items", "lock", "tail", "validate", "warnings")

    def __init__(
        self,
        validate: Callable[[], Callable[[Any], Any]],
        items: DeferredItems,
        warnings: DeferredWarnings,
        tail: Sequence[Warning],
    ) -> None:
        self.validate = validate
        self.items = items
        self.warnings = warnings
        self.tail = list(tail)
        self.done = False
        self.lock = threading.Lock()

    def run(self) -> None:
        """Validate every item once (the first read of either list, from any thread)."""
        if self.done:
            return
        with self.lock:
            if self.done:
                return
            check = self.validate()
            raw = list.copy(self.items)
            out: list[Any] = []
            found: list[tuple[int, Exception]] = []
            for index, item in enumerate(raw):
                try:
                    out.append(check(item))
                except Exception as exc:  # noqa: BLE001 - as the walk: kept, said in a warning
                    found.append((index, exc))
                    out.append(item)
            warnings = [item_mismatch_warning(i, exc) for i, exc in found[:MAX_ITEM_WARNINGS]]
            list.__setitem__(self.items, slice(None), out)
            list.extend(self.warnings, [*warnings, *self.tail])
            self.done = True


def _after_validation(name: str) -> Any:
    method = getattr(list, name)

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        pending = self._pending
        if pending is not None and not pending.done:
            pending.run()
        return method(self, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = method.__doc__
    return call


class _Deferred(list):  # type: ignore[type-arg]
    """A list whose elements are settled by ``_pending`` before any of them is read."""

    __slots__ = ("_pending",)

    def __init__(self, values: Any = (), /) -> None:
        list.__init__(self, values)
        self._pending: _Pending | None = None

    def __reduce_ex__(self, protocol: Any) -> Any:
        # copy, deepcopy and pickle give a plain list of the validated values
        if self._pending is not None:
            self._pending.run()
        return (list, (list.copy(self),))

    @property
    def validated(self) -> bool:
        """Whether the items have been validated (read) yet."""
        return self._pending is None or self._pending.done


_READS = (
    "__getitem__",
    "__iter__",
    "__reversed__",
    "__contains__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__add__",
    "__mul__",
    "__rmul__",
    "__iadd__",
    "__imul__",
    "__setitem__",
    "__delitem__",
    "__repr__",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "copy",
    "count",
    "index",
    "reverse",
    "sort",
)
for _name in _READS:
    setattr(_Deferred, _name, _after_validation(_name))
_Deferred.__hash__ = None  # type: ignore[assignment]  # a list: unhashable


class DeferredItems(_Deferred):
    """The items of a ``page()``: their number is known at once, their values are validated
    against the item model on first read (see the module docstring)."""

    __slots__ = ()


class DeferredWarnings(_Deferred):
    """The warnings of a ``page()``: the envelope's own at once; the item mismatches joined when
    the items are validated, which any read of this list (its length included) does first."""

    __slots__ = ()

    __len__ = _after_validation("__len__")


def deferred_page(
    model: type[Envelope],
    head: Envelope,
    raw_items: list[Any],
    item_model: Callable[[], type[BaseModel]],
    client_warnings: Sequence[Warning] = (),
) -> Envelope:
    """The typed page ``model`` from its validated ``head`` (:func:`items_deferred`) and the raw
    items, validated on first read against ``item_model()`` (called then: it may import).

    ``client_warnings`` are the walk's own warnings of the page other than item mismatches
    (END_INFERRED); they follow the mismatches, where an eager page put them.
    """
    items = DeferredItems(raw_items)
    warnings = DeferredWarnings(head.warnings)
    pending = _Pending(lambda: item_model().model_validate, items, warnings, client_warnings)
    items._pending = pending
    warnings._pending = pending
    values = {name: getattr(head, name) for name in type(head).model_fields}
    values["items"] = items
    values["warnings"] = warnings
    return model.model_construct(_fields_set=set(head.model_fields_set), **values)
