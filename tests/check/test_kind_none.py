"""``x-completeness: {kind: none, why: ...}``: a recorded "not a listing".

check reports no XC100 for it and builds no contract; audit lists it under ``excluded`` with its
reason and never drafts it; generate skips it and says so in its summary.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support.vocab import codes_at
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main

SPEC = Path(__file__).parent / "specs" / "defaults.yaml"
WHY = "one report object; its rows are a fixed breakdown, not a page of results"


def _without_declaration(tmp_path: Path) -> Path:
    doc = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    del doc["paths"]["/report"]["get"]["x-completeness"]
    out = tmp_path / "spec.yaml"
    out.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return out


def test_kind_none_silences_xc100_without_an_operation_id(tmp_path: Path) -> None:
    before = check_spec(_without_declaration(tmp_path))
    assert [d.pointer for d in before.diagnostics if d.code == "XC100"] == ["/paths/~1report/get"]
    after = check_spec(SPEC)
    assert after.diagnostics == []  # no XC100, no XC101 for the missing operationId
    assert len(after.contracts) == 3  # the kind: none operation has none


@pytest.mark.parametrize(
    ("decl", "expected"),
    [
        ({"kind": "none"}, {("XC042", "")}),
        ({"kind": "none", "why": ""}, {("XC052", "/why")}),
        ({"kind": "none", "why": "w", "scope": {"resource": "r"}}, {("XC047", "/scope")}),
        ({"kind": "resource", "why": "w"}, {("XC047", "/why")}),
        ({"kind": "none", "why": "w", "x-note": 1}, set()),
    ],
)
def test_kind_none_takes_only_a_reason(decl: dict, expected: set) -> None:
    assert codes_at(decl) == expected


def test_audit_excludes_it_with_its_reason_and_never_drafts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = _without_declaration(tmp_path)
    main(["audit", str(bare), "--format", "json"])
    assert "/report" in [e["path"] for e in json.loads(capsys.readouterr().out)["undeclared"]]
    draft = tmp_path / "draft.yaml"
    assert main(["audit", str(SPEC), "--format", "json", "--emit-overlay", str(draft)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["undeclared"] == [] and not draft.exists()
    assert report["excluded"] == [
        {
            "method": "get",
            "path": "/report",
            "pointer": "/paths/~1report/get",
            "operation_id": None,
            "source": "declared",
            "why": WHY,
        }
    ]
    assert "excluded 1 operation(s) declared kind: none" in report["summary"]
    main(["audit", str(SPEC)])
    assert f"excluded GET /report  (no operationId)  (declared: {WHY})" in capsys.readouterr().out


def test_generate_skips_it_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "defaults_api"]) == 0
    err = capsys.readouterr().err
    assert "summary: 3 of 4 operation(s) generated (2 collection, 1 resource)" in err
    assert "skipped 1 operation(s) declared kind: none (not listings: (no operationId))" in err
    ops = sorted(p.stem for p in (out / "defaults_api" / "_ops").glob("*.py"))
    assert ops == ["__init__", "get_thing", "list_others", "list_things"]
    assert main(["generate", str(SPEC), "-o", str(out), "--package", "defaults_api", "-q"]) == 0
    assert "summary:" not in capsys.readouterr().err
