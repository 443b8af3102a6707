"""One spec through every stage, in its own process: ``python corpus_worker.py SPEC WORKDIR
[--twin]``.

Stages: load, audit (+ draft overlay), check with the draft, generate with the draft (the package
and its ``--tests`` suite), import the generated package in a fresh interpreter, then the rest of
the generated-output contract (``support.output_contract``): ruff on the tree, the agent tool
definitions against MCP's, OpenAI strict mode's and Anthropic's rules, and with ``--twin`` a
second generate through the CLI in a fresh process (another hash seed, another working folder, no
cache) whose tree must be byte-identical. Prints one JSON object (the last stdout line). Any
exception that escapes a stage is recorded as a ``crash`` with its traceback: the corpus requires
zero of them. Unusable input (``InputError``) and refused generation are outcomes, not crashes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

PACKAGE = "corpus_api"
TESTS = Path(__file__).resolve().parent.parent
if str(TESTS) not in sys.path:  # support.output_contract, when run as a script
    sys.path.insert(0, str(TESTS))


def run(spec: Path, work: Path, *, twin: bool = False) -> dict[str, Any]:
    from xcompleteness.diagnostics import InputError, Severity

    out: dict[str, Any] = {"spec": str(spec), "parsed": False, "crash": None, "seconds": {}}
    stage = "load"
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        out["seconds"][name] = round(now - clock, 3)
        clock = now

    try:
        from xcompleteness.audit._draft import dump_overlay
        from xcompleteness.audit._report import audit_document
        from xcompleteness.check._pipeline import check_spec
        from xcompleteness.load import load_spec

        try:
            doc = load_spec(spec)
        except InputError as exc:
            out["load_codes"] = sorted({d.code for d in exc.diagnostics})
            return out
        out["parsed"] = True
        lap("load")
        stage = "audit"
        report = audit_document(doc.data, origin=str(spec))
        out.update(
            operations=report.operations,
            list_like=len(report.findings),
            undeclared=len(report.undeclared),
        )
        overlays: list[Path] = []
        expected: list[str] = []
        drafted = report.draft_overlay()  # what `audit --emit-overlay` writes, patches included
        if drafted is not None:
            draft = work / "draft.yaml"
            draft.write_text(dump_overlay(drafted), "utf-8")
            overlays.append(draft)
            expected = report.todo_pointers()
        out["todos"] = len(expected)
        lap("audit")
        stage = "check"
        try:
            result = check_spec(spec, overlays)
        except InputError as exc:
            out["check_input_error"] = sorted({d.code for d in exc.diagnostics})
            return out
        errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
        spec_errors = sorted({d.code for d in errors if "/x-completeness" not in d.pointer})
        decl_issues = [
            d for d in result.diagnostics if "/x-completeness" in d.pointer and d.code != "XC900"
        ]
        todos = sorted(d.pointer for d in result.diagnostics if d.code == "XC900")
        out["valid"] = not spec_errors
        out["error_codes"] = spec_errors
        out["draft_issue_codes"] = sorted({d.code for d in decl_issues})
        out["other_warning_codes"] = sorted(
            {
                d.code
                for d in result.diagnostics
                if d.severity is Severity.WARNING and "/x-completeness" not in d.pointer
            }
        )
        out["roundtrip_exact"] = not decl_issues and todos == sorted(expected)
        lap("check")
        stage = "generate"
        out["generate"] = _generate(result, work, out)
        lap("generate")
        if out["generate"] == "ok":
            stage = "contract"
            _contract(work / "out", out)
            lap("contract")
            if twin:
                stage = "twin"
                _twin(spec, overlays, work, out)
                lap("twin")
    except Exception:  # noqa: BLE001 - the point: record any escaping exception as a crash
        out["crash"] = f"{stage}: {traceback.format_exc(limit=8)}"
    return out


def _generate(result: Any, work: Path, out: dict[str, Any]) -> str:
    try:
        from xcompleteness.emit._generate import GenerationRefused, generate_from_check
        from xcompleteness.emit._write import write_tree
    except ImportError:
        return "unavailable"
    from xcompleteness.diagnostics import InputError

    try:
        generation = generate_from_check(result, PACKAGE, tests=True)
    except (GenerationRefused, InputError) as exc:  # InputError: XC015, the work budget
        out["refused_codes"] = sorted({d.code for d in getattr(exc, "diagnostics", ())})
        return "refused"
    target = work / "out"
    write_tree(target, generation.files)
    proc = subprocess.run(
        [sys.executable, "-c", f"import {PACKAGE}, {PACKAGE}.models"],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=60,
    )
    out["importable"] = proc.returncode == 0
    if proc.returncode:
        out["import_error"] = proc.stderr.strip().splitlines()[-1:]
    return "ok"


PROBLEMS_KEPT = 20
"""Problems kept per spec and check (the counts by class are complete)."""


def _keep(problems: list[tuple[str, str]]) -> dict[str, Any]:
    by_class: dict[str, int] = {}
    for klass, _ in problems:
        by_class[klass] = by_class.get(klass, 0) + 1
    return {"classes": by_class, "examples": [f"{k}: {d}" for k, d in problems[:PROBLEMS_KEPT]]}


def _contract(target: Path, out: dict[str, Any]) -> None:
    """ruff on the generated tree and the tool definitions against every consumer's rules."""
    from support.output_contract import ruff_problems, tool_problems

    out["ruff"] = _keep(ruff_problems(target))
    out["tools"] = _keep(tool_problems(target / PACKAGE / "tools"))


def _twin(spec: Path, overlays: list[Path], work: Path, out: dict[str, Any]) -> None:
    """The same generate again, as a user would run it, elsewhere: byte-identical or a finding."""
    from support.output_contract import generate_twin, other_seed, tree, tree_differences

    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    seed = other_seed(spec.name)
    proc = generate_twin(
        spec, overlays, elsewhere / "out", elsewhere, package=PACKAGE, seed=seed, tests=True
    )
    if proc.returncode != 0:
        out["twin"] = {"seed": seed, "exit": proc.returncode, "stderr": proc.stderr[-500:]}
        return
    differ = tree_differences(tree(work / "out"), tree(elsewhere / "out"))
    out["twin"] = {"seed": seed, "exit": 0, "differ": differ[:PROBLEMS_KEPT], "n": len(differ)}


if __name__ == "__main__":
    result = run(Path(sys.argv[1]), Path(sys.argv[2]), twin="--twin" in sys.argv[3:])
    print(json.dumps(result, sort_keys=True))
