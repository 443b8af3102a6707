"""Golden diagnostics: every folder here is one bad (or deliberately fine) input.

``expected.json`` names the exit code and the exact set of ``[code, pointer]`` diagnostics
(never prose). Optional keys: ``spec`` (default ``spec.yaml``, relative to the folder),
``overlays``, ``allow_external_refs``, ``strict``, ``env`` (e.g. a lowered size cap). Rule cases
are written from base.yaml by build_cases.py; bad-input cases are hand-made files.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from xcompleteness.check._pipeline import check_spec
from xcompleteness.diagnostics import ExitCode, InputError, exit_code_for

HERE = Path(__file__).resolve().parent
CASES = sorted(p.parent for p in HERE.glob("*/expected.json"))
TODAY = dt.date(2026, 12, 1)


def run_case(folder: Path) -> tuple[int, list[list[str]], list]:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    spec = folder / expected.get("spec", "spec.yaml")
    overlays = [folder / o for o in expected.get("overlays", [])]
    try:
        result = check_spec(
            spec,
            overlays,
            allow_external_refs=expected.get("allow_external_refs", False),
            today=TODAY,
        )
    except InputError as exc:
        diagnostics = list(exc.diagnostics)
        code = int(ExitCode.UNUSABLE)
    else:
        diagnostics = result.diagnostics
        code = int(exit_code_for(diagnostics, strict=expected.get("strict", False)))
    return code, sorted([d.code, d.pointer] for d in diagnostics), diagnostics


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_case(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    for key, value in expected.get("env", {}).items():
        monkeypatch.setenv(key, value)
    code, got, diagnostics = run_case(folder)
    assert got == sorted(expected["diagnostics"])
    assert code == expected["exit"]
    for d in diagnostics:  # every finding is fully formed: a message and a hint or a line
        assert d.message and d.code.startswith("XC")


def test_every_rule_has_a_case() -> None:
    from xcompleteness.rules._run import RULES

    covered = {c.name.split("_")[1] for c in CASES if c.name.startswith("rule_")}
    # XC109 guards the canonical contract; the vocabulary schema already rejects every
    # declaration that could reach it, so no spec can trigger it through check.
    assert set(RULES) - covered == {"XC109"}
