"""``@record(...)``: a dataclass made on first instantiation, without compiling its methods.

Why: ``@dataclasses.dataclass`` writes and compiles the source of ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and, frozen, ``__setattr__``/``__delattr__`` when the class statement
runs: about 0.8 ms (4 M instructions) per frozen class on Python 3.11, some 25 ms for the runtime's
~30 contract and walk records. ``@record(frozen=True)`` is ``@dataclass(frozen=True)`` applied
later and made without a compiler: the class statement only registers the class, and the first
``Class(...)`` (or anything that makes an instance through ``Class.__new__``: ``copy``,
``pickle``) makes it a dataclass, bases first, once (thread-safe). Making it runs
``dataclasses.dataclass`` for the fields (``__dataclass_fields__``, ``__match_args__``, defaults)
with no method asked of it, then gives the class this module's ready-made methods, which read
those fields: ``__init__`` (positional or keyword arguments, defaults, ``default_factory``,
``init=False``, ``__post_init__``), ``__repr__``, ``__eq__``, ``__hash__`` and, frozen,
``__setattr__``/``__delattr__`` (``FrozenInstanceError``), as ``dataclass`` would write them,
and ``__dataclass_params__`` says what was asked. ``dataclasses.fields``/``replace``/``asdict``,
``==``, ``hash``, ``repr``, ``match`` and ``inspect.signature`` behave as with ``@dataclass``.
A class these methods do not cover (``InitVar`` or keyword-only fields, ``__slots__``, a class
defining one of the methods itself, a subclass of a frozen record) gets ``dataclasses.dataclass``
itself. :func:`materialize` makes the class without making an instance (for code that inspects
the class itself, e.g. ``dataclasses.fields(Class)`` before any instance exists).

Standard library only (type checkers read it as a dataclass decorator through
``dataclass_transform``): copied verbatim into generated packages.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
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
    """Make the pending ``@record`` of ``cls`` and of its bases a dataclass (bases first);
    idempotent."""
    with _LOCK:
        for klass in reversed(cls.__mro__):
            options = _PENDING.pop(klass, None)
            if options is None:
                continue
            for name in _STUBS:
                delattr(klass, name)  # the dataclass's own __init__ replaces the stub
            if not _made_without_compiling(klass, options):
                dataclasses.dataclass(klass, **options)
    return cls


_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__slots__")


def _made_without_compiling(klass: type, options: dict[str, Any]) -> bool:
    """Make ``klass`` the dataclass ``options`` ask for with this module's methods; False (nothing
    changed) when they would not be the dataclass's (then ``dataclasses.dataclass`` does it).
    Keyword-only and ``InitVar`` fields are refused (no runtime record has them)."""
    if any(name in vars(klass) for name in _OWN):
        return False
    for base in klass.__mro__[1:]:
        params = getattr(base, "__dataclass_params__", None)
        if params is not None and (params.frozen or not hasattr(base, "__record_fields__")):
            return False  # a dataclass base that is not a plain record: let dataclass decide
    no_doc = not getattr(klass, "__doc__", None)
    if no_doc:  # dataclass would describe the stub-less class; its own text is set below
        klass.__doc__ = klass.__name__
    # The fields, match args and class defaults only: no method asked, so nothing compiled.
    dataclasses.dataclass(klass, init=False, repr=False, eq=False)
    fields = tuple(dataclasses.fields(klass))
    initvar = getattr(dataclasses, "_FIELD_INITVAR", None)
    every = klass.__dataclass_fields__.values()  # type: ignore[attr-defined]
    if any(f.kw_only is True for f in fields) or any(
        getattr(f, "_field_type", None) is initvar for f in every
    ):
        raise TypeError(
            f"@record: {klass.__qualname__} has keyword-only or InitVar fields; use @dataclass"
        )
    klass.__record_fields__ = fields  # type: ignore[attr-defined]
    klass.__record_plan__ = _plan(klass, fields, options["frozen"])  # type: ignore[attr-defined]
    klass.__init__ = _init  # type: ignore[misc]
    klass.__signature__ = _Signature()  # type: ignore[attr-defined]
    if options["repr"]:
        klass.__repr__ = _repr  # type: ignore[assignment, method-assign]
    if options["eq"]:
        klass.__eq__ = _eq  # type: ignore[assignment, method-assign]
        # dataclass: eq + frozen -> a hash of the compared fields; eq alone -> unhashable
        klass.__hash__ = _hash if options["frozen"] else None  # type: ignore[assignment, method-assign]
    if options["frozen"]:
        klass.__setattr__, klass.__delattr__ = _frozen(klass)  # type: ignore[method-assign]
    params = klass.__dataclass_params__  # type: ignore[attr-defined]
    for name, value in options.items():
        setattr(params, name, value)
    if no_doc:
        klass.__doc__ = klass.__name__ + str(inspect.signature(klass)).replace(" -> None", "")
    return True


_GIVEN, _FACTORY, _DEFAULT, _CLASS = range(4)


def _plan(klass: type, fields: tuple[dataclasses.Field[Any], ...], frozen: bool) -> tuple[Any, ...]:
    """What ``_init`` does for ``klass``, worked out once: the positional names, per field
    (name, how, default or factory), the setter and whether ``__post_init__`` runs."""
    steps: list[tuple[str, bool, int, Any]] = []
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            steps.append((f.name, f.init, _FACTORY, f.default_factory))
        elif f.default is not dataclasses.MISSING:
            steps.append((f.name, f.init, _DEFAULT if f.init else _CLASS, f.default))
        else:
            steps.append((f.name, f.init, _GIVEN if f.init else _CLASS, None))
    names = tuple(f.name for f in fields if f.init)
    setter = object.__setattr__ if frozen else setattr
    return names, tuple(steps), setter, hasattr(klass, "__post_init__")


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    """A record's ``__init__``: what ``dataclass`` writes, read from the plan of its fields."""
    names, steps, setter, post_init = type(self).__record_plan__
    if args:
        if len(args) > len(names):
            required = sum(1 for step in steps if step[1] and step[2] is _GIVEN)
            takes = (
                f"{len(names) + 1}"
                if required == len(names)
                else f"from {required + 1} to {len(names) + 1}"
            )
            raise TypeError(
                f"{type(self).__qualname__}.__init__() takes {takes} positional arguments but "
                f"{len(args) + 1} were given"
            )
        for name, value in zip(names, args, strict=False):
            if name in kwargs:
                raise TypeError(
                    f"{type(self).__qualname__}.__init__() got multiple values for argument "
                    f"{name!r}"
                )
            kwargs[name] = value
    missing = None
    for name, init, how, default in steps:
        if init and name in kwargs:
            setter(self, name, kwargs.pop(name))
        elif how is _FACTORY:
            setter(self, name, default())
        elif how is _DEFAULT:
            setter(self, name, default)
        elif how is _GIVEN:
            missing = [*(missing or ()), name]
        # _CLASS: dataclass leaves it to the class default or to __post_init__
    if kwargs:
        raise TypeError(
            f"{type(self).__qualname__}.__init__() got an unexpected keyword argument "
            f"{next(iter(kwargs))!r}"
        )
    if missing:
        raise TypeError(
            f"{type(self).__qualname__}.__init__() missing {len(missing)} required positional "
            f"argument{'s' if len(missing) > 1 else ''}: {', '.join(repr(n) for n in missing)}"
        )
    if post_init:
        self.__post_init__()


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(
        f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__ if f.repr
    )
    return f"{type(self).__qualname__}({shown})"


def _compared(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, f.name) for f in self.__record_fields__ if f.compare)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        return _compared(self) == _compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    hashed = (f for f in self.__record_fields__ if (f.compare if f.hash is None else f.hash))
    return hash(tuple(getattr(self, f.name) for f in hashed))


def _frozen(klass: type) -> tuple[Callable[..., None], Callable[..., None]]:
    """``__setattr__`` and ``__delattr__`` of frozen ``klass``, as ``dataclass`` writes them."""
    names = frozenset(f.name for f in klass.__record_fields__)  # type: ignore[attr-defined]
    owner: Any = klass

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is owner or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__


class _Signature:
    """``Class.__signature__``: the dataclass ``__init__``'s signature, made when first asked."""

    def __get__(self, obj: Any, cls: type) -> inspect.Signature:
        parameters = [
            inspect.Parameter(
                f.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=(
                    f.default
                    if f.default is not dataclasses.MISSING
                    else dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]
                    if f.default_factory is not dataclasses.MISSING
                    else inspect.Parameter.empty
                ),
                annotation=f.type,
            )
            for f in cls.__record_fields__  # type: ignore[attr-defined]
            if f.init
        ]
        return inspect.Signature(parameters, return_annotation=None)
