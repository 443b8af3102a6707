"""One spec through every stage, in its own process: ``python corpus_worker.py SPEC WORKDIR``.

Stages: load, audit (+ draft overlay), check with the draft, generate with the draft, import the
generated package in a fresh interpreter. Prints one JSON object (the last stdout line). Any
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


def run(spec: Path, work: Path) -> dict[str, Any]:
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
        generation = generate_from_check(result, PACKAGE)
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


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), Path(sys.argv[2])), sort_keys=True))
