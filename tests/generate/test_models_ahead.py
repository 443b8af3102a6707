"""datamodel-code-generator in a forked child, started once the spec is loaded, gives the
one-process files.

``generate`` (two processes) computes the item-schema sub-document right after loading and runs
the library on it in a child (``xcompleteness.ir.models_ahead``) while the parent checks, builds
the IR, renders and formats every emitter but ``models``; the IR joins the child. Here the
size threshold is 0 so the bundled examples take that path, and files, diagnostics (renames
included) and refusals are compared with ``XC_JOBS=1`` (one process). Which process ran the
library is read from a call log only the parent's memory holds.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from support.paths import EXAMPLES
from xcompleteness import forked
from xcompleteness.emit import _generate
from xcompleteness.emit._generate import GenerationRefused, generate
from xcompleteness.emit.emitters import registry
from xcompleteness.ir import _build, _datamodels

pytestmark = pytest.mark.skipif(not forked.wanted(), reason="needs fork and 2 CPUs")

SPECS = Path(__file__).parent / "specs"
CASES = [
    (EXAMPLES / "service_accounts" / "openapi.yaml", []),
    (EXAMPLES / "link_header_search" / "base.yaml", ["overlay.yaml"]),
    (EXAMPLES / "github" / "excerpt.yaml", ["overlay.yaml"]),
    (SPECS / "inline_name_collision.yaml", []),  # renames: XC610 / XC611 from the joined models
]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Threshold 0; the jobs forked and the processes that ran the library (parent's view)."""
    seen: dict[str, list[Any]] = {"forks": [], "library": []}

    class Recorded(forked.Forked):
        def __init__(self, job, *args, name: str) -> None:  # type: ignore[no-untyped-def]
            seen["forks"].append(name)
            super().__init__(job, *args, name=name)

    class RecordedWaiting(forked.Waiting):
        def __init__(self, prepare, job, *, name: str) -> None:  # type: ignore[no-untyped-def]
            seen["forks"].append("waiting " + name)
            super().__init__(prepare, job, name=name)

    real = _datamodels._model_items

    def logged(schemas, openapi):  # type: ignore[no-untyped-def]
        seen["library"].append(os.getpid())  # a child's append stays in the child
        return real(schemas, openapi)

    monkeypatch.setattr(_datamodels, "AHEAD_MIN_SCHEMAS", 0)
    monkeypatch.setattr(_generate, "_idle_core", lambda: True)  # whatever the machine's load
    monkeypatch.setattr(forked, "Forked", Recorded)
    monkeypatch.setattr(forked, "Waiting", RecordedWaiting)
    monkeypatch.setattr(_datamodels, "_model_items", logged)
    return seen


def _run(spec: Path, overlays: list[str], monkeypatch: pytest.MonkeyPatch, jobs: str) -> Any:
    monkeypatch.setenv("XC_JOBS", jobs)
    gen = generate(spec, [spec.parent / o for o in overlays], "pkg", cache=False, tests=True)
    return list(gen.files.items()), gen.diagnostics


def _baseline(
    spec: Path, overlays: list[str], runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> Any:
    """The one-process result, with the library's call log emptied for the run compared to it."""
    one = _run(spec, overlays, monkeypatch, "1")
    runs["library"].clear()
    return one


@pytest.mark.parametrize("spec,overlays", CASES, ids=lambda v: str(v)[-30:])
def test_models_from_the_child_give_the_one_process_files(
    spec: Path, overlays: list[str], runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _run(spec, overlays, monkeypatch, "1")
    assert runs["forks"] == [] and runs["library"] == [os.getpid()]
    runs["library"].clear()
    two = _run(spec, overlays, monkeypatch, "2")
    assert "xc-models" in runs["forks"]
    assert runs["library"] == []  # the child ran it, the parent used its answer
    assert two == one  # same files, same order, same diagnostics


@pytest.mark.parametrize("spec,overlays", CASES[2:], ids=lambda v: str(v)[-30:])
def test_a_child_forked_before_loading_gives_the_one_process_files(
    spec: Path, overlays: list[str], runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _baseline(spec, overlays, runs, monkeypatch)
    monkeypatch.setattr(_generate, "PREPARE_MIN_BYTES", 0)  # every spec counts as large
    two = _run(spec, overlays, monkeypatch, "2")
    assert runs["forks"][0] == "waiting xc-models"  # forked before the validation child
    assert "xc-models" not in runs["forks"]  # the waiting child got the schemas
    assert runs["library"] == []
    assert two == one


def test_no_early_child_when_the_model_cache_has_entries(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from xcompleteness.emit._model_cache import ModelCache

    spec, overlays = CASES[2]
    monkeypatch.setenv("XC_CACHE_DIR", str(tmp_path / "cache"))  # this test's own, empty
    monkeypatch.setattr(_generate, "PREPARE_MIN_BYTES", 0)
    monkeypatch.setenv("XC_JOBS", "2")
    assert not ModelCache.holds_any()
    first = generate(spec, [spec.parent / o for o in overlays], "pkg", tests=True)
    assert runs["forks"][0] == "waiting xc-models"
    assert ModelCache.holds_any()
    runs["forks"].clear()
    changed = generate(spec, [spec.parent / o for o in overlays], "pkg2", tests=True)
    assert "waiting xc-models" not in runs["forks"]  # entries exist: forked after loading, if
    assert "xc-models" not in runs["forks"]  # at all: the cached models of these schemas hit
    assert len(changed.files) == len(first.files)


def test_no_child_without_an_idle_core(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[2]
    one = _baseline(spec, overlays, runs, monkeypatch)
    monkeypatch.setattr(_generate, "_idle_core", lambda: False)
    monkeypatch.setattr(_generate, "PREPARE_MIN_BYTES", 0)
    assert _run(spec, overlays, monkeypatch, "2") == one
    assert not any("xc-models" in name for name in runs["forks"])
    assert runs["library"] == [os.getpid()]


def test_renames_are_reported_from_the_childs_models(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, diagnostics = _run(SPECS / "inline_name_collision.yaml", [], monkeypatch, "2")
    assert runs["library"] == []
    assert {"XC610", "XC611"} <= {d.code for d in diagnostics}


@pytest.mark.parametrize(
    "answer",
    [
        "raise",
        None,
        {"source": 1, "classes": {}, "holders": {}},
        {"source": "x = 1\n", "classes": {"Nope": "Nope"}, "holders": {}},  # other schemas
        {"source": "x = 1\n", "classes": {}, "holders": {"not an identifier": "#/x"}},
    ],
    ids=["raises", "none", "source-not-text", "other-schemas", "bad-holder"],
)
def test_an_unusable_child_answer_leaves_the_library_to_the_parent(
    answer: Any, runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[2]
    one = _baseline(spec, overlays, runs, monkeypatch)

    def child(schemas, openapi):  # type: ignore[no-untyped-def]
        if answer == "raise":
            raise RuntimeError("the child fails")
        return answer

    monkeypatch.setattr(_datamodels, "_ahead_answer", child)
    two = _run(spec, overlays, monkeypatch, "2")
    assert "xc-models" in runs["forks"]
    assert runs["library"] == [os.getpid()]  # not used: the parent ran the library itself
    assert two == one


def test_a_child_that_modelled_other_schemas_is_not_used(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[1]
    one = _baseline(spec, overlays, runs, monkeypatch)
    real = _build.item_schemas

    def guessed_wrong(*args: Any) -> tuple[dict[str, Any], str]:
        schemas, openapi = real(*args)
        return {**schemas, "Extra": {"type": "object"}}, openapi

    monkeypatch.setattr(_build, "item_schemas", guessed_wrong)
    monkeypatch.setattr("xcompleteness.ir.item_schemas", guessed_wrong)
    two = _run(spec, overlays, monkeypatch, "2")
    assert "xc-models" in runs["forks"]
    assert runs["library"] == [os.getpid()]
    assert two == one


def _replaced(name: str, emit: Any) -> tuple[registry.Emitter, ...]:
    return tuple(
        registry.Emitter(e.name, emit, e.out_relative) if e.name == name else e
        for e in registry.EMITTERS
    )


def test_an_emitter_reading_the_models_early_renders_after_the_join(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[2]
    read: list[str] = []
    server = next(e for e in registry.EMITTERS if e.name == "server")

    def curious(ir, renderer):  # type: ignore[no-untyped-def]
        read.append(ir.item_models.source[:10])  # raises ModelsPending before the join
        return server.emit(ir, renderer)

    monkeypatch.setattr(registry, "EMITTERS", _replaced("server", curious))
    one = _run(spec, overlays, monkeypatch, "1")
    read.clear()
    runs["library"].clear()
    two = _run(spec, overlays, monkeypatch, "2")
    assert runs["library"] == []  # the child's answer was used
    assert len(read) == 1  # rendered once, after the join
    assert two == one


def test_an_early_emitter_error_is_the_one_process_error(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[2]

    def broken(ir, renderer):  # type: ignore[no-untyped-def]
        raise RuntimeError("the augmented spec fails")

    monkeypatch.setattr(registry, "EMITTERS", _replaced("augmented", broken))
    for jobs in ("1", "2"):
        with pytest.raises(RuntimeError, match="the augmented spec fails"):
            _run(spec, overlays, monkeypatch, jobs)


def test_a_refusal_by_the_library_is_the_one_process_refusal(
    runs: dict[str, list[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[2]

    def refused(schemas, openapi):  # type: ignore[no-untyped-def]
        raise _datamodels.ModelsRefused("datamodel-code-generator cannot model these schemas: x")

    monkeypatch.setattr(_datamodels, "_model_items", refused)
    errors = []
    for jobs in ("1", "2"):
        with pytest.raises(GenerationRefused) as caught:
            _run(spec, overlays, monkeypatch, jobs)
        errors.append(caught.value.diagnostics)
    assert errors[0] == errors[1]
    assert [d.code for d in errors[0]] == ["XC603"]


def test_no_child_when_the_model_cache_holds_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    schemas = {"Thing": {"type": "object", "properties": {"id": {"type": "integer"}}}}
    models = _datamodels._model_items(schemas, "3.0.3")
    key = _datamodels.models_key(_datamodels.sub_document(schemas, "3.0.3"))
    value = {"source": models.source, "classes": models.classes, "holders": models.holders}

    class Store:
        def get(self, k: str) -> Any:
            return value if k == key else None

        def put(self, k: str, v: Any) -> None:
            raise AssertionError("nothing to store")

    monkeypatch.setattr(_datamodels, "AHEAD_MIN_SCHEMAS", 0)
    with _datamodels.model_store(Store()), _datamodels.models_ahead():
        assert not _datamodels.start_models(schemas, "3.0.3")
        assert not _datamodels.models_pending()
    with _datamodels.model_store(None), _datamodels.models_ahead():
        assert _datamodels.start_models(schemas, "3.0.3")
        assert not _datamodels.start_models(schemas, "3.0.3")  # one child per run
        assert _datamodels.models_pending()
        assert _datamodels.model_items(schemas, "3.0.3") == models
        assert not _datamodels.models_pending()


def test_no_child_outside_models_ahead_or_below_the_threshold() -> None:
    schemas = {"Thing": {"type": "object"}}
    assert not _datamodels.start_models(schemas, "3.0.3")  # no models_ahead block
    with _datamodels.models_ahead():
        assert not _datamodels.start_models(schemas, "3.0.3")  # 1 < AHEAD_MIN_SCHEMAS


def _square(x: int) -> int:
    return x * x


def _fails() -> None:
    raise RuntimeError("preparing fails")


def test_a_waiting_child_runs_the_job_it_is_sent() -> None:
    prepared = forked.Waiting(lambda: None, _square, name="xc-test")
    assert prepared.submit(7)
    assert prepared.result() == (True, 49)


def test_a_waiting_child_whose_preparation_fails_still_runs_the_job() -> None:
    prepared = forked.Waiting(_fails, _square, name="xc-test")
    assert prepared.submit(3)
    assert prepared.result() == (True, 9)


def test_a_waiting_child_is_stopped_without_a_job() -> None:
    prepared = forked.Waiting(lambda: None, _square, name="xc-test")
    prepared.cancel()
    assert prepared.result() == (False, None)
    assert not prepared.submit(2)


def test_arguments_that_cannot_be_sent_stop_the_waiting_child() -> None:
    prepared = forked.Waiting(lambda: None, _square, name="xc-test")
    assert not prepared.submit(lambda: 1)  # not picklable (AttributeError: a local object)
    assert prepared.result() == (False, None)


class _Unpicklable:
    def __reduce__(self) -> Any:
        raise pickle.PicklingError("refuses to be pickled")


def test_arguments_whose_pickling_fails_stop_the_waiting_child() -> None:
    prepared = forked.Waiting(lambda: None, _square, name="xc-test")
    assert not prepared.submit(_Unpicklable())  # pickle.PicklingError: no traceback
    assert prepared.result() == (False, None)


def test_a_job_that_raises_in_a_waiting_child_is_a_failure() -> None:
    prepared = forked.Waiting(lambda: None, _square, name="xc-test")
    assert prepared.submit("not a number")
    assert prepared.result() == (False, None)
