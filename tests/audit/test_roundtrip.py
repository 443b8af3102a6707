"""The draft round trip: ``check`` on spec plus audit's draft reports exactly the draft's TODOs.

Each TODO is one XC900 warning at the pointer audit says it wrote; nothing else is reported (the
drafted declarations validate and pass every rule). Once a reviewer settles and deletes the TODOs,
the same check is clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support.paths import ROOT
from xcompleteness.audit._draft import todo_pointers
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main
from xcompleteness.detect._listlike import scan
from xcompleteness.load import load_spec

SPECS = [
    ROOT / "tests" / "audit" / "specs" / "styles.yaml",
    ROOT / "examples" / "link_header_search" / "base.yaml",
    ROOT / "examples" / "service_accounts" / "base.yaml",
    ROOT / "examples" / "github" / "excerpt.yaml",
]


def _draft(spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict]:
    draft = tmp_path / "draft.yaml"
    code = main(["audit", str(spec), "--emit-overlay", str(draft), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["overlay"] == str(draft) and draft.exists()
    return draft, report


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.parent.name + "/" + p.name)
def test_check_on_spec_plus_draft_reports_exactly_the_todos(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft, report = _draft(spec, tmp_path, capsys)
    result = check_spec(spec, [draft])
    expected = todo_pointers(scan(load_spec(spec).data))
    assert len(expected) == report["todos"] > 0
    assert [d for d in result.diagnostics if d.code != "XC900"] == []
    assert sorted(d.pointer for d in result.diagnostics) == sorted(expected)
    assert all(d.file == str(draft) and d.line for d in result.diagnostics)  # points into the draft
    assert len(result.contracts) == len(report["undeclared"])
    assert main(["check", str(spec), "--overlay", str(draft), "--strict"]) == 1
    capsys.readouterr()


def test_settled_draft_checks_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reviewer who answers every TODO (here: by deleting them) gets a clean check."""
    spec = ROOT / "examples" / "link_header_search" / "base.yaml"
    draft, _ = _draft(spec, tmp_path, capsys)
    overlay = yaml.safe_load(draft.read_text(encoding="utf-8"))
    for action in overlay["actions"]:
        decl = action["update"]["x-completeness"]
        decl.pop("x-todo")
        decl["scope"]["visibility"] = "repositories the token can see"
    draft.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    assert [d.render() for d in check_spec(spec, [draft]).diagnostics] == []


def test_nothing_to_draft_writes_no_overlay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = ROOT / "examples" / "link_header_search" / "openapi.yaml"  # every listing declared
    draft = tmp_path / "draft.yaml"
    assert main(["audit", str(spec), "--emit-overlay", str(draft)]) == 0
    assert "nothing to draft" in capsys.readouterr().out
    assert not draft.exists()


def test_audit_with_overlay_counts_declared_operations(capsys: pytest.CaptureFixture[str]) -> None:
    base = ROOT / "examples" / "service_accounts"
    code = main(
        [
            "audit",
            str(base / "base.yaml"),
            "--overlay",
            str(base / "overlay.yaml"),
            "--format",
            "json",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (report["list_like"], report["declared"], report["undeclared"]) == (2, 2, [])


def test_operations_without_operation_id_get_a_drafted_unique_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = {"name": "page", "in": "query", "schema": {"type": "integer"}}
    array = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": array}}}}
    spec = tmp_path / "no_ids.yaml"
    spec.write_text(
        yaml.safe_dump(
            {
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1"},
                "paths": {
                    "/things": {"get": {"parameters": [page], "responses": ok}},
                    "/status": {
                        "get": {
                            "operationId": "get_things",
                            "responses": {"200": {"description": "ok"}},
                        }
                    },
                },
            }
        ),
        encoding="utf-8",
    )
    draft, _ = _draft(spec, tmp_path, capsys)
    overlay = yaml.safe_load(draft.read_text(encoding="utf-8"))
    assert overlay["actions"][0]["update"]["operationId"] == "get_things_2"
    result = check_spec(spec, [draft])
    assert {d.code for d in result.diagnostics} == {"XC900"}
    assert list(result.contracts) == ["get_things_2"]


def test_unwritable_draft_path_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    spec = ROOT / "examples" / "link_header_search" / "base.yaml"
    code = main(
        ["audit", str(spec), "--emit-overlay", str(blocker / "draft.yaml"), "--format", "json"]
    )
    out = capsys.readouterr().out
    assert code == 2
    assert [d["code"] for d in json.loads(out)["diagnostics"]] == ["XC901"]


def test_only_upper_case_todo_words_are_markers() -> None:
    from types import SimpleNamespace

    from xcompleteness.rules._todo import todo_diagnostics

    decl = {
        "kind": "collection",
        "scope": {"resource": "todo", "visibility": "TODO: who?", "covers": "TODOS"},
    }
    doc = SimpleNamespace(
        data={"paths": {"/todo": {"get": {"x-completeness": decl}}}}, lines={}, origin="t.yaml"
    )
    [diag] = todo_diagnostics(doc)
    assert diag.pointer == "/paths/~1todo/get/x-completeness/scope/visibility"
