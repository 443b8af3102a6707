"""``xcompleteness check`` on GitHub's REST description vs openapi-spec-validator and Redocly.

Peers measured in the same run, on the same file, each in its own process (wall time, CPU time
and peak RSS from ``os.wait4``):

* ``xcompleteness check`` (load, OpenAPI validation with the set-based speed-up, vocabulary,
  rules);
* plain openapi-spec-validator 0.9 (its own CLI, stock: no speed-up);
* the OpenAPI validation step alone through our wrapper, with and without the speed-up (this
  isolates what the set-based registries buy; verdicts are identical, see tests/check);
* Redocly CLI ``lint`` (npm ``@redocly/cli``, installed into .cache/redocly on first use).

CPU time is reported beside wall time because the machine may be shared: ratios of CPU time
are the steadier figure. Run with ``make bench`` or ``python bench/run.py check``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from fetch import ROOT, github_spec

REDOCLY_PREFIX = ROOT / ".cache" / "redocly"
REDOCLY_BIN = REDOCLY_PREFIX / "node_modules" / ".bin" / "redocly"
TIMEOUT_S = 1800
REPS = max(1, int(os.environ.get("XC_BENCH_REPS", "1") or 1))
"""Repetitions per tool (``XC_BENCH_REPS``); the best wall and CPU time of them is reported."""

_VALIDATE_ONLY = (
    "import sys; from xcompleteness.load import load_spec; "
    "from xcompleteness.validate import validate_openapi; "
    "d = validate_openapi(load_spec(sys.argv[1]), speedup=sys.argv[2] == 'fast'); "
    "print(len(d), 'OpenAPI errors')"
)


class Run(NamedTuple):
    name: str
    wall_s: float
    cpu_s: float
    peak_mb: float
    exit_code: int
    note: str


def _measure(name: str, cmd: list[str]) -> Run:
    """Best of ``REPS`` runs of ``cmd``."""
    runs = [_measure_once(name, cmd) for _ in range(REPS)]
    return Run(
        name,
        min(r.wall_s for r in runs),
        min(r.cpu_s for r in runs),
        max(r.peak_mb for r in runs),
        runs[-1].exit_code,
        runs[-1].note,
    )


def _measure_once(name: str, cmd: list[str], note: str = "") -> Run:
    """Run ``cmd`` once; wall clock around the child, CPU and peak RSS from its own rusage."""
    errfile = tempfile.TemporaryFile()  # a file, not a pipe: a chatty child must not block
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errfile, cwd=ROOT)
    deadline = started + TIMEOUT_S
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            note = (note + " TIMEOUT").strip()
            break
        time.sleep(0.05)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code  # we reaped the child ourselves; tell Popen
    errfile.seek(0)
    stderr = errfile.read().decode(errors="replace")
    errfile.close()
    if code not in (0, 1) and not note:
        note = "failed: " + stderr.strip().splitlines()[-1][:120] if stderr.strip() else "failed"
    return Run(
        name,
        wall,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,  # kilobytes on Linux
        code,
        note,
    )


def _redocly() -> Path | None:
    if not REDOCLY_BIN.exists() and shutil.which("npm"):
        REDOCLY_PREFIX.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--prefix", str(REDOCLY_PREFIX), "@redocly/cli"],
            check=False,
            capture_output=True,
            timeout=900,
        )
    return REDOCLY_BIN if REDOCLY_BIN.exists() else None


def main() -> str:
    spec = github_spec()
    py = sys.executable
    size_mb = spec.stat().st_size / 1e6
    load = os.getloadavg()[0]
    runs = [
        _measure("xcompleteness check", [py, "-m", "xcompleteness", "check", str(spec)]),
        _measure(
            "openapi-spec-validator 0.9 CLI (stock)",
            [py, "-m", "openapi_spec_validator", str(spec)],
        ),
        _measure("validation step, with speed-up", [py, "-c", _VALIDATE_ONLY, str(spec), "fast"]),
        _measure("validation step, stock", [py, "-c", _VALIDATE_ONLY, str(spec), "stock"]),
    ]
    redocly = _redocly()
    if redocly is not None:
        runs.append(_measure("Redocly CLI lint", [str(redocly), "lint", str(spec)]))
    peer = next((r for r in runs if r.name == "Redocly CLI lint"), runs[1])
    lines = [
        f"### check on GitHub's REST description ({spec.name}, {size_mb:.1f} MB)",
        "",
        f"Peer for the ratios: **{peer.name}** (same run). Load average at start: {load:.1f}.",
        "",
        "| tool | wall s | CPU s | peak RSS MB | wall / peer | CPU / peer | exit | note |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r.name} | {r.wall_s:.1f} | {r.cpu_s:.1f} | {r.peak_mb:.0f} | "
            f"{r.wall_s / peer.wall_s:.2f} | {r.cpu_s / peer.cpu_s:.2f} | {r.exit_code} | "
            f"{r.note} |"
        )
    fast = next(r for r in runs if r.name == "validation step, with speed-up")
    stock = next(r for r in runs if r.name == "validation step, stock")
    lines += [
        "",
        f"Set-based visit registries: validation CPU {stock.cpu_s:.1f} s -> {fast.cpu_s:.1f} s "
        f"({stock.cpu_s / fast.cpu_s:.2f}x).",
        "check exits 0: GitHub's description declares no x-completeness, so its list-like "
        "operations are XC100 warnings. Redocly exits 1 on its own lint errors. Runs are "
        f"sequential, best of {REPS}; on a shared machine compare the CPU columns.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
