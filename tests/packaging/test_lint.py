"""The project's own code stays ruff-clean (generated code is checked in tests/golden)."""

import subprocess
import sys

from support.paths import ROOT


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_check_is_clean():
    proc = _ruff("check", "generator", "bench", "tests")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean():
    proc = _ruff("format", "--check", "generator")
    assert proc.returncode == 0, proc.stdout + proc.stderr
