"""Size bombs (docs/security.md, "Sizes, counts and costs"): what a small document can make the
generator do is bounded by a documented cap with its own code and exit 2, or by linear work.

- ``XC025``: more ``x-completeness`` declarations than ``XC_MAX_DECLARATIONS`` (each costs
  milliseconds in check and generate), refused once the overlays are applied, before any stage
  spends time on one;
- ``XC015``: the item models' work budget (``XC_MAX_SCHEMA_NODES``), now twice the largest real
  description's need instead of 13 times, so a 2 MB enum is refused in seconds;
- names that clash (operations, fields, parameters, classes) get their suffixes in linear time;
- a closed output pipe (``| head``) ends the run with exit 2, not a traceback.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.hostile import SPEC, codes, run, write_overlay, write_spec
from xcompleteness import api
from xcompleteness.ir._naming import NameRegistry

LISTING = SPEC["paths"]["/items"]["get"]


def _declared(count: int) -> dict:
    """:data:`SPEC` with ``count`` declared listings (the first is SPEC's own)."""
    spec = copy.deepcopy(SPEC)
    for i in range(1, count):
        op = copy.deepcopy(LISTING)
        op["operationId"] = f"listItems{i}"
        spec["paths"][f"/items{i}"] = {"get": op}
    return spec


def test_more_declarations_than_the_cap_is_xc025_at_the_first_one_past_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = write_spec(tmp_path, _declared(4))
    monkeypatch.setenv("XC_MAX_DECLARATIONS", "4")
    assert run(capsys, "check", str(spec))[0] == 0
    monkeypatch.setenv("XC_MAX_DECLARATIONS", "3")
    rc, _out, err = run(capsys, "check", str(spec))
    assert rc == 2 and codes(err) == {"XC025"}
    assert "#/paths/~1items3/get/x-completeness (line " in err and "XC_MAX_DECLARATIONS" in err
    generated = api.generate(spec, tmp_path / "out", cache=False)
    assert int(generated.exit_code) == 2 and not generated.files
    assert [d.code for d in generated.diagnostics] == ["XC025"]
    assert not (tmp_path / "out").exists()
    for result in (api.mock(spec), api.audit(spec), api.verify(spec, "http://127.0.0.1:9")):
        assert int(result.exit_code) == 2 and [d.code for d in result.diagnostics] == ["XC025"]


def test_declarations_an_overlay_writes_count_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _declared(2)
    doc["paths"]["/more"] = {"get": {**copy.deepcopy(LISTING), "operationId": "more"}}
    del doc["paths"]["/more"]["get"]["x-completeness"]  # undeclared in the spec
    spec = write_spec(tmp_path, doc)
    decl = {"x-completeness": LISTING["x-completeness"]}
    overlay = write_overlay(tmp_path, {"target": "$.paths['/more'].get", "update": decl})
    monkeypatch.setenv("XC_MAX_DECLARATIONS", "3")
    assert run(capsys, "check", str(spec), "--overlay", str(overlay))[0] == 0
    monkeypatch.setenv("XC_MAX_DECLARATIONS", "2")
    rc, _out, err = run(capsys, "check", str(spec), "--overlay", str(overlay))
    assert rc == 2 and codes(err) == {"XC025"} and "#/paths/~1more/get/x-completeness" in err


def test_the_default_cap_refuses_a_document_of_ten_thousand_and_one_declarations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = copy.deepcopy(SPEC)
    for i in range(10_000):  # small ones: 1.5 MB in all (the cap counts any declaration)
        op = {"operationId": f"op{i}", "responses": {"200": {"description": "ok"}}}
        doc["paths"][f"/op{i}"] = {"get": {**op, "x-completeness": {"kind": "none"}}}
    spec = tmp_path / "many.json"
    spec.write_text(json.dumps(doc), encoding="utf-8")
    rc, _out, err = run(capsys, "check", str(spec))
    assert rc == 2 and codes(err) == {"XC025"} and "10,000" in err


def test_the_default_work_budget_refuses_a_two_megabyte_enum_before_modelling(
    tmp_path: Path,
) -> None:
    """300,001 enum values are 300,001 steps: past the default budget (the former one, 2
    million, let this document reach datamodel-code-generator and model for minutes)."""
    spec = copy.deepcopy(SPEC)
    item = spec["paths"]["/items"]["get"]["responses"]["200"]["content"]["application/json"]
    props = item["schema"]["properties"]["items"]["items"]["properties"]
    props["level"] = {"type": "integer", "enum": list(range(300_001))}
    path = tmp_path / "enum.json"
    path.write_text(json.dumps(spec, separators=(",", ":")), encoding="utf-8")
    result = api.generate(path, cache=False)
    assert int(result.exit_code) == 2 and not result.files
    [diag] = result.diagnostics
    assert diag.code == "XC015" and "/properties/level/enum/" in diag.pointer
    assert "300,000 steps" in diag.message and "XC_MAX_SCHEMA_NODES" in diag.hint


def test_clashing_names_take_their_suffixes_in_linear_time() -> None:
    """n claims of one name look up O(n) candidates (before: the k-th claim tried k of them,
    n^2/2 in all: 20,000 clashing operation names probed for minutes)."""

    class Counting(dict):
        lookups = 0

        def __contains__(self, key: object) -> bool:
            Counting.lookups += 1
            return super().__contains__(key)

    names = NameRegistry("the operations", taken=Counting())
    names.reserve("thing_3")  # a name already taken is still skipped
    got = [names.claim("thing", origin=f"/op{i}") for i in range(2000)]
    assert got[:4] == ["thing", "thing_2", "thing_4", "thing_5"]
    assert len(set(got)) == 2000 and got[-1] == "thing_2001"
    assert Counting.lookups < 3 * 2000
    assert [d.code for d in names.diagnostics] == ["XC602"] * 1999
    pascal = [names.claim("Thing", origin="/c", style="pascal") for _ in range(3)]
    assert pascal == ["Thing", "Thing2", "Thing3"]


def test_a_closed_output_pipe_ends_the_run_without_a_traceback(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, _declared(30))
    proc = subprocess.Popen(
        [sys.executable, "-m", "xcompleteness", "check", str(spec), "--format", "sarif"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader leaves before the report (``| head -c 0``)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 2
    assert "Traceback" not in err and "BrokenPipeError" not in err
