"""``xcompleteness`` as a user runs it: a separate process, its exit code, stdout and stderr."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def xc(
    *args: str,
    cwd: Path | None = None,
    timeout: float = 300,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """Run ``python -m xcompleteness ARGS`` in ``cwd`` (``env``: the whole environment, else
    this process's); text output, never raises on exit code."""
    return subprocess.run(
        [sys.executable, "-m", "xcompleteness", *args],
        cwd=cwd,
        env=None if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
