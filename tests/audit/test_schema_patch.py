"""Issue 19 §3: audit drafts the schema patch a declaration needs; check's hint names it.

specs/patch/tasks.yaml is an Asana-shaped list whose schema lacks the next token the API
returns; tasks.declare.yaml declares the walk as the API really pages it.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness import api

HERE = Path(__file__).parent / "specs" / "patch"
SPEC, DECLARE = HERE / "tasks.yaml", HERE / "tasks.declare.yaml"


def test_check_names_the_overlay_action_in_its_hint() -> None:
    report = api.check(SPEC, [DECLARE])
    errors = {d.code: d for d in report.diagnostics if d.code in ("XC105", "XC106")}
    assert set(errors) == {"XC105", "XC106"}
    hint = errors["XC105"].hint
    assert "$['components']['schemas']['TaskList']" in hint
    assert '"next_page": {"properties": {"offset": {"type": "string"}}' in hint


def test_audit_drafts_the_patch_and_check_then_lists_only_its_todo(tmp_path: Path) -> None:
    draft = tmp_path / "draft.yaml"
    result = api.audit(SPEC, [DECLARE], emit_overlay=draft)
    assert result.exit_code == 1  # something to fix
    overlay = yaml.safe_load(draft.read_text("utf-8"))
    [patch, todo] = overlay["actions"]
    assert patch["target"] == "$['components']['schemas']['TaskList']"
    offset = patch["update"]["properties"]["next_page"]["properties"]["offset"]
    assert offset["type"] == "string"
    assert offset["x-drafted-from"].endswith("/x-completeness/pagination/response/next")
    assert offset["description"].startswith("TODO")
    assert todo["update"]["x-completeness"]["x-todo"][0].startswith("schema: ")

    report = api.check(SPEC, [DECLARE, draft], strict=True)
    assert [d.code for d in report.diagnostics] == ["XC900"]  # only the review is left
    assert report.exit_code == 1

    # the reviewer confirms the field and deletes the TODO: clean under --strict
    todo["update"]["x-completeness"]["x-todo"] = []
    draft.write_text(yaml.safe_dump(overlay), "utf-8")
    assert api.check(SPEC, [DECLARE, draft], strict=True).exit_code == 0


def test_no_patch_when_the_schema_has_the_location(tmp_path: Path) -> None:
    result = api.audit(SPEC, [DECLARE, HERE / "tasks.schema.yaml"])
    assert result.report is not None and result.report.patches == []
    assert result.exit_code == 0
