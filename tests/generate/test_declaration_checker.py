"""Declarations checked on a second core (``declare.declaration_checker``).

``generate`` with a core idle forks a child before loading the spec; it imports jsonschema while
the spec loads and then answers, for the declarations the clean-declaration store does not know,
whether the schema and details checks find nothing (not on a cold run: the item models take that
core). Observed: with the child, the files and diagnostics (also of a refused run) are those of
one process; on an edit the parent never imports jsonschema when every declaration is clean;
the answer is what the run uses (a checker that says "clean" for a broken declaration hides its
error), and a checker that fails, raises or answers nonsense leaves every declaration to the
in-process check.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.cache_inputs import cache_inputs, drop_whole_run_entries
from xcompleteness import forked
from xcompleteness.check import check_spec
from xcompleteness.declare import declaration_checker, found_nothing, validate_declarations
from xcompleteness.emit import _generate
from xcompleteness.emit._generate import GenerationRefused, generate
from xcompleteness.load import load_document

pytestmark = pytest.mark.skipif(not forked.wanted(), reason="needs fork and 2 CPUs")


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setattr(_generate, "_idle_core", lambda: True)  # whatever the machine's load
    return cache_inputs(tmp_path, monkeypatch)


def _edited(overlay: Path, name: str, **changes: Any) -> Path:
    data = yaml.safe_load(overlay.read_text("utf-8"))
    data["actions"][0]["update"]["x-completeness"].update(changes)
    out = overlay.with_name(f"{name}.yaml")
    out.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return out


def _outcome(spec: Path, overlay: Path, **options: Any) -> Any:
    try:
        gen = generate(spec, [overlay], "repos", **options)
    except GenerationRefused as exc:
        return "refused", [d.to_json() for d in exc.diagnostics]
    return gen.files, [d.to_json() for d in gen.diagnostics]


def test_the_child_gives_the_one_process_result(inputs, monkeypatch) -> None:
    spec, overlay = inputs
    edits = [
        overlay,
        _edited(overlay, "visibility", scope={"resource": "repos", "visibility": "edited"}),
        _edited(overlay, "broken", bogus=1),  # XC041: the child says no, checked here
        _edited(overlay, "reasons", reasons=5),  # not a list: a diagnostic, never a crash
    ]
    for edit in edits:
        drop_whole_run_entries()
        with_child = _outcome(spec, edit)
        monkeypatch.setenv("XC_JOBS", "1")
        alone = _outcome(spec, edit, cache=False)
        monkeypatch.delenv("XC_JOBS")
        assert with_child == alone, edit.name
    assert _outcome(spec, edits[2])[0] == "refused"
    assert _outcome(spec, edits[3])[0] == "refused"


CHILD = """
import sys
import xcompleteness.emit._generate as G
G._idle_core = lambda: True
from xcompleteness.emit._generate import generate
generate(sys.argv[1], [sys.argv[2]], "repos")
print("jsonschema" in sys.modules)
"""


def test_the_parent_never_imports_jsonschema_for_clean_declarations(inputs) -> None:
    spec, overlay = inputs
    edit = _edited(overlay, "scoped", scope={"resource": "repos", "visibility": "another"})
    answers = []
    for given in (overlay, edit):  # a cold run (models made on the other core), then an edit
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(spec), str(given)],
            capture_output=True,
            text=True,
            check=True,
        )
        answers.append(done.stdout.strip())
    assert answers == ["True", "False"]


class Saying:
    """A checker with a fixed answer (or an exception), recording what it was asked."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.asked: list[Any] = []

    def clean(self, items: list[Any]) -> Any:
        self.asked.append(items)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer(items) if callable(self.answer) else self.answer


def test_the_answer_is_what_the_run_uses(inputs) -> None:
    spec, overlay = inputs
    broken = _edited(overlay, "broken", bogus=1)
    doc = load_document(spec, [broken])
    alone = validate_declarations(doc)
    assert [d for d in alone if d.code == "XC041"]
    assert found_nothing(_items(doc)) == _expected(doc, alone)
    with declaration_checker(Saying(lambda items: [True] * len(items))):
        assert not [d for d in validate_declarations(doc) if d.code == "XC041"]
    for answer in (None, [True], [True] * 3, ["yes"] * 2, RuntimeError("died"), [False] * 2):
        checker = Saying(answer)
        with declaration_checker(checker):
            assert validate_declarations(doc) == alone, answer
        assert len(checker.asked) == 1


def _items(doc: Any) -> list[Any]:
    """What validate_declarations asks a checker about ``doc`` (no store: every declaration)."""
    asked = Saying(lambda items: [False] * len(items))
    with declaration_checker(asked):
        validate_declarations(doc)
    (items,) = asked.asked
    assert len(items) == 2  # the example's two declarations
    return items


def _expected(doc: Any, found: list[Any]) -> list[bool]:
    """Per declaration asked about: the in-process schema and details checks found nothing."""
    checks = {f"XC0{n}" for n in range(40, 60)} - {"XC051", "XC052", "XC057"}
    return [
        not [d for d in found if d.code in checks and d.pointer.startswith(pointer)]
        for _instance, _decl, pointer, _codes in _items(doc)
    ]


def test_found_nothing_agrees_with_the_in_process_check(inputs) -> None:
    spec, overlay = inputs
    cases = {
        "clean": overlay,
        "unknown key": _edited(overlay, "k", bogus=1),
        "wrong type": _edited(overlay, "t", scope="not an object"),
        "bad detail": _edited(overlay, "d", reasons=[{"code": "RESULT_LIMIT_REACHED", "nope": 1}]),
    }
    answers = []
    for name, edit in cases.items():
        doc = load_document(spec, [edit])
        answer = found_nothing(_items(doc))
        assert answer == _expected(doc, list(check_spec(spec, [edit]).diagnostics)), name
        answers.append(answer)
    assert answers[0] == [True, True] and all(a.count(False) == 1 for a in answers[1:]), answers
