"""``xcompleteness`` as a user runs it: a separate process, its exit code, stdout and stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def xc(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m xcompleteness ARGS`` in ``cwd``; text output, never raises on exit code."""
    return subprocess.run(
        [sys.executable, "-m", "xcompleteness", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
