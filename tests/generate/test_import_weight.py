"""An overlay edit imports only what it runs: no HTTP client, no JSONPath engine for name-only
targets, no OpenAPI validator or datamodel-code-generator when their results are reused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml
from support.cache_inputs import cache_inputs, edited_overlay
from xcompleteness.emit.emitters import tool_dynamic
from xcompleteness.resources import runtime_constant
from xcompleteness.runtime import toolsets

PROBE = """
import json, sys
from xcompleteness.emit._generate import generate
generate(sys.argv[1], [sys.argv[2]], "repos")
print(json.dumps(sorted(sys.modules)))
"""


def test_an_edit_with_warm_caches_imports_no_http_client_or_skipped_stage(
    tmp_path: Path, monkeypatch
) -> None:
    spec, overlay = cache_inputs(tmp_path, monkeypatch)
    as_json = overlay.with_suffix(".json")
    as_json.write_text(json.dumps(yaml.safe_load(overlay.read_text("utf-8"))), "utf-8")
    edit = edited_overlay(overlay, "an edit")
    as_json_edit = edit.with_suffix(".json")
    as_json_edit.write_text(json.dumps(yaml.safe_load(edit.read_text("utf-8"))), "utf-8")

    def modules(over: Path) -> set[str]:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(spec), str(over)],
            capture_output=True,
            text=True,
            check=True,
        )
        return set(json.loads(done.stdout.splitlines()[-1]))

    cold = modules(as_json)
    assert "datamodel_code_generator" in cold  # the cold run did the work
    warm_edit = modules(as_json_edit)
    for name in ("httpx", "jsonpath", "openapi_spec_validator", "datamodel_code_generator"):
        assert name not in warm_edit, name


def test_the_runtime_constants_read_from_source_are_the_imported_ones() -> None:
    assert runtime_constant("toolsets", "META") == toolsets.META
    assert runtime_constant("toolsets", "MAX_RESULTS") == toolsets.MAX_RESULTS
    assert tool_dynamic._limit("MAX_DESCRIBE") == toolsets.MAX_DESCRIBE
