"""``@record(...)``: a dataclass whose methods are made when the class is first instantiated.

Why: ``@dataclasses.dataclass`` writes and compiles the source of ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and, frozen, ``__setattr__``/``__delattr__`` when the class statement
runs: about 0.8 ms per class on Python 3.11, some 25 ms for the runtime's ~30 contract and walk
records, paid by ``import NAME`` although a first ``page()`` instantiates only about half of
them. ``@record(frozen=True)`` is ``@dataclass(frozen=True)`` applied later: the class statement
only registers the class, and the first ``Class(...)`` (or anything that makes an instance
through ``Class.__new__``: ``copy``, ``pickle``) applies ``dataclasses.dataclass`` with the same
options, bases first, once (thread-safe). Instances are then ordinary dataclass instances:
``dataclasses.fields``/``replace``/``asdict``, ``==``, ``hash``, ``repr`` and ``match`` behave as
with ``@dataclass``. :func:`materialize` applies it without making an instance (for code that
inspects the class itself, e.g. ``dataclasses.fields(Class)`` before any instance exists).

Standard library only (type checkers read it as a dataclass decorator through
``dataclass_transform``): copied verbatim into generated packages.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # typing.dataclass_transform from Python 3.11
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda decorator: decorator


__all__ = ["materialize", "record"]

_T = TypeVar("_T", bound=type)

_PENDING: dict[type, dict[str, Any]] = {}
_LOCK = threading.RLock()


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(
    *,
    frozen: bool = False,
    eq: bool = True,
    repr: bool = True,  # noqa: A002 - dataclass's own keyword
) -> Callable[[_T], _T]:
    """``@dataclasses.dataclass(frozen=..., eq=..., repr=...)``, applied on first instantiation."""
    options = {"frozen": frozen, "eq": eq, "repr": repr}

    def decorate(cls: _T) -> _T:
        own = sorted(_STUBS.keys() & vars(cls).keys())
        if own:
            raise TypeError(f"@record: {cls.__qualname__} defines {', '.join(own)} itself")
        with _LOCK:
            _PENDING[cls] = options
            for name, stub in _STUBS.items():
                setattr(cls, name, stub)
        return cls

    return decorate


def _first_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """A pending class's ``__init__``: apply the dataclass, then initialise as it does."""
    materialize(type(self)).__init__(self, *args, **kwargs)  # type: ignore[misc]


def _first_setstate(self: Any, state: Any) -> None:
    """A pending class's ``__setstate__`` (an instance made by ``copy`` or ``pickle`` without
    ``__init__``): apply the dataclass, then restore the state as ``pickle`` does by default."""
    cls = materialize(type(self))
    own = getattr(cls, "__setstate__", None)
    if own is not None:
        own(self, state)
        return
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        self.__dict__.update(state)
    for key, value in (slots or {}).items():
        setattr(self, key, value)


_STUBS: dict[str, Any] = {"__init__": _first_init, "__setstate__": _first_setstate}


def materialize(cls: _T) -> _T:
    """Apply the pending ``@record`` of ``cls`` and of its bases (bases first); idempotent."""
    with _LOCK:
        for klass in reversed(cls.__mro__):
            options = _PENDING.pop(klass, None)
            if options is None:
                continue
            for name in _STUBS:
                delattr(klass, name)  # dataclass() then writes its own __init__
            dataclasses.dataclass(klass, **options)
    return cls
