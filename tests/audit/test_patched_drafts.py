"""A draft whose declarations read locations only its schema patches add is one document.

Audit drafts the property or header a declaration reads when the schema lacks it and prose or an
example states it (a Link header said in a parameter's description, an array only a response
example shows). The declaration is valid only with that patch applied, so every consumer of a
draft takes the whole document from ``AuditReport.draft_overlay`` (what ``--emit-overlay``
writes). The corpus worker once assembled the draft itself without the patches and counted
check's XC107 and XC103 on 23 real specs as drafts that fail their round trip, and Slack's as a
valid spec generate refused.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from support.paths import ROOT
from xcompleteness import api
from xcompleteness.audit._draft import dump_overlay
from xcompleteness.audit._report import audit_document
from xcompleteness.check._pipeline import check_spec
from xcompleteness.load import load_spec

SPEC = Path(__file__).parent / "specs" / "patched_drafts.yaml"


def _report():
    return audit_document(load_spec(SPEC).data, origin=str(SPEC))


def test_the_report_draft_is_what_emit_overlay_writes(tmp_path: Path) -> None:
    written = tmp_path / "draft.yaml"
    api.audit(SPEC, emit_overlay=written)
    drafted = _report().draft_overlay()
    assert drafted is not None and yaml.safe_load(written.read_text("utf-8")) == drafted
    patched = [a["update"] for a in drafted["actions"] if "x-completeness" not in a["update"]]
    assert len(patched) == 2  # the Link header of /trays, seedling_ids of /beds.listSeedlings
    assert any("Link" in u.get("headers", {}) for u in patched)
    assert any("seedling_ids" in u.get("properties", {}) for u in patched)


def test_check_on_spec_plus_report_draft_reports_exactly_its_todos(tmp_path: Path) -> None:
    report = _report()
    draft = tmp_path / "draft.yaml"
    draft.write_text(dump_overlay(report.draft_overlay() or {}), "utf-8")
    result = check_spec(SPEC, [draft])
    assert [d.render() for d in result.diagnostics if d.code != "XC900"] == []
    assert sorted(d.pointer for d in result.diagnostics) == sorted(report.todo_pointers())
    assert len(report.todo_pointers()) > 0


def test_the_corpus_worker_round_trips_and_generates_such_a_draft(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "corpus"))
    from corpus_worker import run

    out = run(SPEC, tmp_path)
    assert out["crash"] is None
    assert out["draft_issue_codes"] == [] and out["roundtrip_exact"] is True
    assert out["generate"] == "ok" and out["importable"] is True


# -- listings behind `$ref` path items ----------------------------------------------------------

REF_SPEC = Path(__file__).parent / "specs" / "ref_path_items.yaml"


def test_a_listing_behind_a_ref_path_item_is_drafted_where_it_is_written(tmp_path: Path) -> None:
    report = audit_document(load_spec(REF_SPEC).data, origin=str(REF_SPEC))
    drafted = report.draft_overlay()
    assert drafted is not None
    targets = [a["target"] for a in drafted["actions"]]
    pots = "$['components']['x-paths']['Pots']['get']"
    assert targets == [pots, pots + "['responses']['200']"]  # the declaration, the Link header
    draft = tmp_path / "draft.yaml"
    draft.write_text(dump_overlay(drafted), "utf-8")
    result = check_spec(REF_SPEC, [draft])  # raised XC021 (target matches nothing) before
    issues = [d for d in result.diagnostics if "/x-completeness" in d.pointer]
    assert [d.render() for d in issues if d.code != "XC900"] == []
    assert sorted(d.pointer for d in result.diagnostics if d.code == "XC900") == sorted(
        report.todo_pointers()
    )


def test_an_operation_reached_through_two_paths_is_excluded_not_drafted() -> None:
    report = audit_document(load_spec(REF_SPEC).data, origin=str(REF_SPEC))
    shared = [e for e in report.excluded if e.source == "shared"]
    assert [e.path for e in shared] == ["/plant-status", "/support/plant-status"]
    assert "own path item" in shared[0].why
    assert [f.path for f in report.undeclared] == ["/pots"]
    assert "reached through several paths" in report.summary()
