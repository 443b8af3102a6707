"""The in-process snippets ``make bench`` runs for ``check`` still run against today's package.

They reach into stage modules by path (a benchmark times stages one by one), so a module move
breaks them silently unless something runs them: this runs each on the example spec and asserts
what it prints.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.paths import EXAMPLES, ROOT

sys.path.insert(0, str(ROOT / "bench"))
import bench_check  # noqa: E402

SPEC = EXAMPLES / "service_accounts" / "openapi.yaml"


@pytest.mark.parametrize("mode", ["stock", "fast"])
def test_the_validation_step_snippet_runs(mode: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", bench_check._VALIDATE_ONLY, str(SPEC), mode],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 OpenAPI errors"


def test_the_stage_breakdown_snippet_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", bench_check._STAGES, str(SPEC)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    stages = [name for name, _wall, _cpu in json.loads(proc.stdout)]
    assert stages[0] == "imports" and stages[-1] == "lines for diagnostics" and len(stages) == 6


def test_the_floor_snippet_runs(tmp_path) -> None:
    import bench_speed
    import yaml

    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(yaml.safe_load(SPEC.read_text(encoding="utf-8"))), "utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", bench_speed.FLOOR, str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


def test_the_growth_table_orders_by_operations_and_compares_growth(tmp_path) -> None:
    import bench_speed

    spec = tmp_path / "spec.json"
    paths = {"/a": {"get": {}, "post": {}, "parameters": [], "x-y": {}}, "/b": {"put": {}}}
    spec.write_text(json.dumps({"openapi": "3.0.3", "paths": paths}), encoding="utf-8")
    assert bench_speed.operation_count(spec) == 3
    lines = bench_speed.growth_lines(
        [
            ("Big", 10_000, {"cpu": 4.0}, {"cpu": 16.0}),
            ("Small", 1_000, {"cpu": 1.0}, {"cpu": 2.0}),
        ]
    )
    rows = [line for line in lines if line.startswith("| Small") or line.startswith("| Big")]
    assert rows == [
        "| Small | 1,000 | 1.00 | 2.00 | 1.00 | 1.00 | 0.50 |",
        "| Big | 10,000 | 4.00 | 16.00 | 0.40 | 0.80 | 0.25 |",
    ]
    assert bench_speed.growth_lines([("One", 5, {"cpu": 1.0}, {"cpu": 1.0})]) == []
