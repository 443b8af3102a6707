"""``@record(...)`` (runtime/records.py): a dataclass made on first instantiation.

A record class is a dataclass with the same options once anything makes an instance
(``Class(...)``, ``copy``, ``pickle``, also in a fresh interpreter) or :func:`materialize` is
called; until then importing its module compiled none of its methods, and making it compiles none
either (its methods are records.py's, reading the fields). Compared here against twins decorated
with ``@dataclass`` directly.
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


_COMPILES = """
import sys
sys.path.insert(0, sys.argv[1])
from xcompleteness.runtime import contract, expressions, walk_results
from xcompleteness.runtime.records import materialize
compiled = []
sys.addaudithook(lambda event, args: compiled.append(args) if event == "compile" else None)
for cls in (contract.Contract, contract.Registry, expressions.Expression, expressions.ResponseView,
            walk_results.PageRequest, walk_results.Limits, walk_results.StreamResult):
    materialize(cls)
print(len(compiled))
"""


def test_making_the_runtime_records_compiles_no_source() -> None:
    """``dataclasses.dataclass`` compiles ~6 method texts per frozen class (~4 M instructions):
    a record is made from records.py's ready-made methods instead (issue 21, first call)."""
    done = subprocess.run(
        [sys.executable, "-c", _COMPILES, str(GENERATOR)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_errors_of_init_match_the_dataclass_twin() -> None:
    lazy, eager = _pair()
    for args, kwargs in [
        ((), {}),
        (("a", 1, (), {}, 5), {}),
        (("a",), {"name": "b"}),
        ((), {"x": 1}),
    ]:
        with pytest.raises(TypeError) as ours:
            lazy(*args, **kwargs)
        with pytest.raises(TypeError) as theirs:
            eager(*args, **kwargs)
        assert str(ours.value).split("__init__()")[1] == str(theirs.value).split("__init__()")[1]


def test_a_mutable_record_is_unhashable_and_settable_as_its_twin() -> None:
    @record()
    class Lazy:
        a: int
        b: list[int] = field(default_factory=list)

    @dataclass
    class Eager:
        a: int
        b: list[int] = field(default_factory=list)

    one, two = Lazy(1), Eager(1)
    one.a, two.a = 2, 2
    assert (one.a, one.b, one == Lazy(2), one != Lazy(3)) == (two.a, two.b, True, True)
    assert Lazy.__hash__ is None and Eager.__hash__ is None
    assert Lazy(1).b is not Lazy(1).b  # a fresh default per instance


def test_post_init_and_init_false_fields_as_the_twin() -> None:
    def body(decorate: Any) -> type:
        class Made:
            source: str
            derived: str = field(init=False, repr=False, compare=False)
            seen: list[str] = field(init=False, default_factory=list)

            def __post_init__(self) -> None:
                object.__setattr__(self, "derived", self.source.upper())

        return decorate(Made)

    lazy, eager = body(record(frozen=True)), body(dataclass(frozen=True))
    a, b = lazy("x"), eager("x")
    assert (a.derived, a.seen, repr(a), a == lazy("x")) == (b.derived, b.seen, repr(b), True)
    assert str(inspect.signature(lazy)) == str(inspect.signature(eager))
    with pytest.raises(TypeError):
        lazy("x", "y")  # type: ignore[call-arg]


def test_keyword_only_fields_are_refused_with_a_clear_error() -> None:
    @record(frozen=True)
    class KwOnly:
        a: int
        b: int = field(default=0, kw_only=True)

    with pytest.raises(TypeError, match="keyword-only or InitVar"):
        KwOnly(1)


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
