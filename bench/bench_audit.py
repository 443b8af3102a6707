"""``xcompleteness audit`` on GitHub's full REST description: wall time and peak memory.

Peers, measured in the same run, each in a fresh process (peak RSS is per process):

* ``json.load`` alone: the floor, what reading the 10 MB file costs at all;
* ``json.load`` + stock ``openapi_spec_validator.validate``: what the usual first step on a spec
  (validating it) costs; audit is meant to be cheap next to it.

Audit is measured end to end as a user runs it: load with line map, list-like discovery, draft
overlay written as YAML (``--emit-overlay``). Times are the median of three runs (one for the
slow validator).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from fetch import github_spec

SCRIPTS = {
    "audit": """
import time, resource, sys, io, contextlib
from xcompleteness.cli import main
t = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    main(["audit", sys.argv[1], "--emit-overlay", sys.argv[2], "--format", "json"])
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""",
    "json.load": """
import time, resource, sys, json
t = time.perf_counter()
json.load(open(sys.argv[1]))
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""",
    "json.load + openapi-spec-validator": """
import time, resource, sys, json
from openapi_spec_validator import validate
t = time.perf_counter()
validate(json.load(open(sys.argv[1])))
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""",
}


def _run(name: str, spec: Path, draft: Path) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPTS[name], str(spec), str(draft)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    ).stdout.split()
    return float(out[-2]), float(out[-1]) / 1024  # seconds, MiB (ru_maxrss is KiB on Linux)


def main() -> str:
    spec = github_spec()
    with tempfile.TemporaryDirectory() as tmp:
        draft = Path(tmp) / "draft.yaml"
        rows = {}
        for name in SCRIPTS:
            runs = [_run(name, spec, draft) for _ in range(1 if "validator" in name else 3)]
            rows[name] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))
        overlay = draft.read_text(encoding="utf-8")
    from xcompleteness.audit._report import audit_document

    report = audit_document(json.loads(spec.read_text(encoding="utf-8")))
    audit_t, audit_m = rows["audit"]
    lines = [
        f"### audit on GitHub's REST description ({spec.stat().st_size / 2**20:.1f} MiB, "
        f"{report.operations} operations)",
        "",
        f"{len(report.findings)} list-like operations found, draft overlay of "
        f"{len(overlay.encode()) / 1024:.0f} KiB.",
        "",
        "| run | wall (s) | peak RSS (MiB) | audit / run (time) |",
        "|---|---|---|---|",
    ]
    for name, (t, m) in rows.items():
        lines.append(f"| {name} | {t:.2f} | {m:.0f} | {audit_t / t:.2f}× |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
