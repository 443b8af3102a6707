"""``@record(...)`` (runtime/records.py): a dataclass applied on first instantiation.

A record class is ``@dataclasses.dataclass`` with the same options once anything makes an
instance (``Class(...)``, ``copy``, ``pickle``, also in a fresh interpreter) or
:func:`materialize` is called; until then importing its module compiled none of its methods.
Compared here against twins decorated with ``@dataclass`` directly.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import xcompleteness.runtime
from xcompleteness.runtime import (
    contract,
    expressions,
    parameters,
    records,
    walk_core,
    walk_plan,
    walk_results,
)
from xcompleteness.runtime.records import materialize, record

GENERATOR = Path(xcompleteness.runtime.__file__).parents[2]


def _pair() -> tuple[type, type]:
    """A record class and its @dataclass twin (one body, same options)."""

    def body(decorate: Any, name: str) -> type:
        class Item:
            name: str
            size: int = 0
            tags: tuple[str, ...] = ()
            extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

        Item.__name__ = Item.__qualname__ = name
        made: type = decorate(Item)
        return made

    return body(record(frozen=True), "Lazy"), body(dataclass(frozen=True), "Eager")


def test_a_record_is_not_a_dataclass_until_first_instantiated() -> None:
    lazy, _ = _pair()
    assert not dataclasses.is_dataclass(lazy)
    one = lazy("a", 2)
    assert dataclasses.is_dataclass(lazy) and dataclasses.is_dataclass(one)


def test_instances_behave_as_the_dataclass_twin() -> None:
    lazy, eager = _pair()
    a, b = lazy("a", 2, ("x",), {"k": 1}), eager("a", 2, ("x",), {"k": 1})
    assert repr(a).replace("Lazy", "Eager") == repr(b)
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(b)]
    assert a == lazy("a", 2, ("x",), {"other": 2}) and a != lazy("b")  # extra: compare=False
    assert hash(a) == hash(lazy("a", 2, ("x",))) and hash(b) == hash(eager("a", 2, ("x",)))
    assert dataclasses.replace(a, size=3).size == 3 and dataclasses.asdict(a)["extra"] == {"k": 1}
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.size = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        lazy()  # type: ignore[call-arg]  # the required field, as the dataclass says
    assert str(inspect.signature(lazy)) == str(inspect.signature(eager))
    assert lazy.__match_args__ == eager.__match_args__


def test_a_subclass_made_first_materializes_its_bases_first() -> None:
    @record(frozen=True)
    class Base:
        a: int

    @record(frozen=True)
    class Child(Base):
        b: str = ""

    child = Child(1, "x")
    assert (child.a, child.b) == (1, "x") and child == Child(1, "x")
    assert dataclasses.is_dataclass(Base) and Base(1) != child
    assert [f.name for f in dataclasses.fields(Child)] == ["a", "b"]


def test_a_plain_subclass_of_a_record_materializes_it() -> None:
    @record()
    class Base:
        a: int

    class Plain(Base):
        pass

    assert Plain(4).a == 4 and repr(Plain(4)).endswith("Plain(a=4)") and Plain(4) == Plain(4)


def test_materialize_without_an_instance_and_again() -> None:
    lazy, _ = _pair()
    assert materialize(lazy) is lazy and materialize(lazy) is lazy
    assert [f.name for f in dataclasses.fields(lazy)] == ["name", "size", "tags", "extra"]


def test_copy_and_pickle_of_records() -> None:
    one = walk_results.Limits(max_pages=3)
    assert copy.copy(one) == one and copy.deepcopy(one) == one
    assert pickle.loads(pickle.dumps(one)) == one


def test_an_instance_unpickled_in_a_fresh_interpreter_is_a_full_dataclass() -> None:
    """Unpickling makes the instance without ``__init__``; the class is materialized still."""
    dumped = pickle.dumps(expressions.Literal(3))
    code = (
        "import pickle, sys, dataclasses\n"
        f"sys.path.insert(0, {str(GENERATOR)!r})\n"
        "from xcompleteness.runtime import records\n"
        "from xcompleteness.runtime.expressions import Literal\n"
        "pending = Literal in records._PENDING\n"
        "x = pickle.loads(sys.stdin.buffer.read())\n"
        "print(pending, dataclasses.is_dataclass(Literal), x == Literal(3), repr(x),\n"
        "      hash(x) == hash(Literal(3)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=dumped, capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == ["True", "True", "True", "Literal(value=3)", "True"]


def test_threads_instantiating_at_once_all_get_the_dataclass() -> None:
    lazy, _ = _pair()
    out: list[Any] = []
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def make(i: int) -> None:
        start.wait()
        try:
            out.append(lazy(str(i), i))
        except BaseException as exc:  # pragma: no cover - the failure this test looks for
            errors.append(exc)

    threads = [threading.Thread(target=make, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(x.size for x in out) == list(range(8))
    assert all(x == lazy(str(x.size), x.size) and repr(x).endswith("extra={})") for x in out)


def test_a_class_with_its_own_init_is_refused() -> None:
    with pytest.raises(TypeError, match="defines __init__ itself"):

        @record()
        class Own:
            a: int

            def __init__(self) -> None:
                self.a = 1


RUNTIME_RECORDS = [
    value
    for module in (contract, expressions, parameters, walk_core, walk_plan, walk_results)
    for value in vars(module).values()
    if isinstance(value, type)
    and value.__module__ == module.__name__
    and (dataclasses.is_dataclass(value) or value in records._PENDING)
]


def test_every_runtime_record_is_the_dataclass_it_was() -> None:
    """The runtime's records are frozen dataclasses (``_Step``, the walk's mutable cursor, is
    not frozen), as before they became records."""
    names = {cls.__qualname__ for cls in RUNTIME_RECORDS}
    assert {"Contract", "Registry", "Expression", "Literal", "Limits", "CollectResult"} <= names
    for cls in RUNTIME_RECORDS:
        materialize(cls)
        assert dataclasses.is_dataclass(cls), cls
        assert cls.__dataclass_params__.frozen is (cls.__qualname__ != "_Step"), cls  # type: ignore[attr-defined]
