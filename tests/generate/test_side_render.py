"""Side emitters rendered in a forked child give the files one process renders.

``generate`` renders the augmented spec and the agent tools in a second process on large
packages (``SIDE_MIN_OPERATIONS``); here the threshold is 0 so the bundled examples take that
path, and the files, diagnostics and refusals are compared with ``XC_JOBS=1`` (one process).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest
from support.paths import EXAMPLES
from xcompleteness import forked
from xcompleteness.emit import _generate
from xcompleteness.emit._generate import generate

pytestmark = pytest.mark.skipif(not forked.wanted(), reason="needs fork and 2 CPUs")

CASES = [
    (EXAMPLES / "service_accounts" / "openapi.yaml", []),
    (EXAMPLES / "link_header_search" / "base.yaml", ["overlay.yaml"]),
    (EXAMPLES / "github" / "excerpt.yaml", ["overlay.yaml"]),
]


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every threshold 0, and the names of the jobs forked (the real fork still runs)."""
    names: list[str] = []

    class Recorded(forked.Forked):
        def __init__(self, job, *args, name: str) -> None:  # type: ignore[no-untyped-def]
            names.append(name)
            super().__init__(job, *args, name=name)

    monkeypatch.setattr(_generate, "SIDE_MIN_OPERATIONS", 0)
    monkeypatch.setattr(_generate, "_idle_core", lambda: True)  # whatever the machine's load
    monkeypatch.setattr(forked, "Forked", Recorded)
    return names


def _run(spec: Path, overlays: list[str], monkeypatch: pytest.MonkeyPatch, jobs: str):
    monkeypatch.setenv("XC_JOBS", jobs)
    gen = generate(spec, [spec.parent / o for o in overlays], "pkg", cache=False, tests=True)
    return list(gen.files.items()), gen.diagnostics


@pytest.mark.parametrize("spec,overlays", CASES, ids=lambda v: str(v)[-30:])
def test_a_forked_side_renders_the_one_process_files(
    spec: Path, overlays: list[str], forks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _run(spec, overlays, monkeypatch, "1")
    assert "xc-render" not in forks
    two = _run(spec, overlays, monkeypatch, "2")
    assert "xc-render" in forks  # the side emitters were rendered by the child
    assert two == one  # same files, same order, same diagnostics
    assert any(str(rel).endswith("openapi.augmented.json") for rel, _ in two[0])


def test_a_failing_child_leaves_the_work_to_the_parent(
    forks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, overlays = CASES[1]
    one = _run(spec, overlays, monkeypatch, "1")

    def broken(emitters, ir):  # type: ignore[no-untyped-def]
        raise RuntimeError("the child fails")

    monkeypatch.setattr(_generate, "_emit_side", broken)
    two = _run(spec, overlays, monkeypatch, "2")
    assert "xc-render" in forks
    assert two == one


def test_no_fork_without_an_idle_core(forks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spec, overlays = CASES[0]
    one = _run(spec, overlays, monkeypatch, "1")
    monkeypatch.setattr(_generate, "_idle_core", lambda: False)
    assert _run(spec, overlays, monkeypatch, "2") == one
    assert "xc-render" not in forks


def test_an_idle_core_is_read_from_the_load_average(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    cpus = len(os.sched_getaffinity(0))
    monkeypatch.setattr(os, "getloadavg", lambda: (cpus - 1.0, 0.0, 0.0))
    assert _generate._idle_core()
    monkeypatch.setattr(os, "getloadavg", lambda: (cpus + 3.0, 0.0, 0.0))
    assert not _generate._idle_core()


@pytest.mark.parametrize(
    "answer",
    [
        None,
        [],
        [{"a.py": "x"}],  # one emitter's files for two emitters
        [{"a.py": "x"}, {"b.py": b"bytes"}],
        [{"a.py": "x"}, {PurePosixPath("b.py"): "x"}],
        [{"a.py": "x"}, ["b.py", "x"]],
    ],
)
def test_an_answer_that_is_not_text_files_per_emitter_is_not_used(answer: object) -> None:
    assert _generate._side_answer(answer, 2) is None


def test_a_well_formed_answer_is_read_as_paths() -> None:
    got = _generate._side_answer([{"a.py": "x"}, {}], 2)
    assert got == [{PurePosixPath("a.py"): "x"}, {}]
