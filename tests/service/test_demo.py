"""`make demo` works: examples/demo.py runs end to end and every step says what it should."""

from __future__ import annotations

import os
import subprocess
import sys

from support.paths import ROOT


def test_make_demo_runs_the_whole_story():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "demo.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=420,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in out + proc.stderr
    steps = [
        "STEP 0  xcompleteness check",
        "STEP 1  'which service accounts have no owner?'",
        "reason: TIME_BUDGET_EXCEEDED (server, budget_ms=1000",
        "reason: RESULT_LIMIT_REACHED (server, limit=1000)",
        "decide(destructive_on_unlisted_complement) -> refuse_or_request_review",
        "STEP 2  an agent, through the generated MCP server",
        "status=partial",
        "refused: EVIDENCE_REJECTED reasons=['EVIDENCE_MISSING']",
        "option retry_with_longer_deadline",
        "status=complete items=320 without owner=46 evidence=yes",
        "decide(destructive_on_listed_ids) -> proceed",
        "archived 46 accounts",
        "STEP 6  replaying the same evidence",
        "reason=target_changed",
        "service stopped (SIGTERM, graceful)",
        "DEMO OK",
    ]
    position = 0
    for line in steps:  # in this order
        found = out.find(line, position)
        assert found >= 0, f"missing after position {position}: {line!r}\n{out}"
        position = found
