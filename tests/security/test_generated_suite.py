"""Issue 18 item 14: ``generate --tests`` with a custom reason in object form (check-clean) gives
a suite that passes: a code whose details schema types nothing accepts the static details a
declaration gives it (the model is open, like the schema ``{type: object}``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.hostile import run, write_overlay
from support.paths import EXAMPLES


def test_a_custom_reason_in_object_form_gives_a_passing_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    spec = EXAMPLES / "service_accounts" / "openapi.yaml"
    overlay = write_overlay(
        tmp_path,
        {
            "target": "$",
            "update": {
                "x-completeness-registry": {
                    "reasons": {"X_CUSTOM_CODE": {"description": "custom", "continuation": "none"}}
                }
            },
        },
        {
            "target": "$.paths['/service-accounts'].get.x-completeness.reasons",
            "update": {"code": "X_CUSTOM_CODE", "description": "the custom reason, object form"},
        },
    )
    rc, _, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 0, err
    out = tmp_path / "out"
    rc, _, err = run(
        capsys, "generate", str(spec), "--overlay", str(overlay), "-o", str(out), "--tests"
    )
    assert rc == 0, err
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "-k", "x_custom"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout
