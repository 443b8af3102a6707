"""The CLI end to end, in real subprocesses: output formats, exit codes, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from support.paths import EXAMPLES
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main

INVALID = Path(__file__).resolve().parents[1] / "invalid"
BAD_INPUT = sorted(p for p in INVALID.iterdir() if p.name.startswith(("input_", "overlay_XC")))


def _command(folder: Path) -> tuple[list[str], dict[str, str]]:
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    cmd = [
        sys.executable,
        "-m",
        "xcompleteness",
        "check",
        str(folder / expected.get("spec", "spec.yaml")),
    ]
    for overlay in expected.get("overlays", []):
        cmd += ["--overlay", str(folder / overlay)]
    if expected.get("allow_external_refs"):
        cmd.append("--allow-external-refs")
    return cmd, {**os.environ, **expected.get("env", {})}


def test_bad_input_classes_exit_2_without_traceback() -> None:
    """Every bad-input case, run concurrently (each is a fresh interpreter)."""
    assert len(BAD_INPUT) >= 25
    procs = []
    for folder in BAD_INPUT:
        cmd, env = _command(folder)
        procs.append(
            (
                folder,
                subprocess.Popen(
                    cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                ),
            )
        )
    for folder, proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, (folder.name, out, err)
        assert "Traceback" not in out + err, folder.name
        code = folder.name.split("_")[1]
        assert f"error {code}:" in err, (folder.name, err)


def test_json_format_and_exit_codes(tmp_path: Path) -> None:
    case = INVALID / "rule_XC104_id_missing" / "spec.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "xcompleteness", "check", str(case), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    (diag,) = json.loads(proc.stdout)["diagnostics"]
    assert diag["code"] == "XC104" and diag["severity"] == "error"
    assert diag["pointer"] == "/paths/~1things/get/x-completeness/id"
    assert isinstance(diag["line"], int) and diag["hint"]


def test_text_format_strict_and_today() -> None:
    case = INVALID / "rule_XC119_review_by_passed" / "spec.yaml"
    base = [sys.executable, "-m", "xcompleteness", "check", str(case), "--today", "2026-12-01"]
    relaxed = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert relaxed.returncode == 0
    line = relaxed.stderr.splitlines()[0]
    assert line.startswith(f"{case}#/x-completeness-registry/reasons/SHARD_MOVING/review-by (line ")
    assert ": warning XC119: " in line
    strict = subprocess.run([*base, "--strict"], capture_output=True, text=True, timeout=120)
    assert strict.returncode == 1


def test_strict_and_today_in_process(capsys) -> None:
    case = str(INVALID / "rule_XC119_review_by_passed" / "spec.yaml")
    assert main(["check", case, "--today", "2019-01-01", "--strict"]) == 0
    assert main(["check", case, "--today", "2026-12-01", "--strict"]) == 1
    try:
        main(["check", case, "--today", "soon"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_examples_are_clean_inline_and_through_their_overlay() -> None:
    for folder in sorted(p for p in EXAMPLES.iterdir() if (p / "openapi.yaml").exists()):
        runs = [check_spec(folder / "openapi.yaml")]
        if (folder / "overlay.yaml").exists():
            runs.append(check_spec(folder / "base.yaml", [folder / "overlay.yaml"]))
        for result in runs:
            assert result.diagnostics == [], result.diagnostics
            assert result.contracts
        if len(runs) == 2:  # the overlay route yields the same contracts as the inline spec
            assert runs[0].contracts == runs[1].contracts
