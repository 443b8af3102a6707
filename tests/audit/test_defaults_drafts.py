"""Audit reads ``x-completeness-defaults``: what the block answers is not asked again.

On specs/styles.yaml every draft asks about visibility; with a defaults block (applied by an
overlay, as a user would) the visibility, no-pagination, id, search-limit and page-start
questions it answers disappear, and ``check`` on spec + defaults + draft still reports exactly
the remaining TODOs.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from xcompleteness.audit._draft import todo_pointers
from xcompleteness.check._pipeline import check_spec
from xcompleteness.cli import main
from xcompleteness.detect._listlike import scan
from xcompleteness.load import load_spec
from xcompleteness.load._overlay import apply_overlays

SPEC = Path(__file__).parent / "specs" / "styles.yaml"
BLOCK = {
    "scope": {"visibility": "what the token can read"},
    "reasons": [{"code": "RATE_LIMITED", "when": {"equals": ["$statusCode", 429]}}],
    "drafts": {
        "unpaginated": "complete",
        "id-fields": ["name", "sku"],
        "search-limit": 1000,
        "first-page": 1,
    },
}


@pytest.fixture
def overlay(tmp_path: Path) -> Path:
    path = tmp_path / "defaults.overlay.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "overlay": "1.0.0",
                "info": {"title": "defaults", "version": "1"},
                "actions": [{"target": "$", "update": {"x-completeness-defaults": BLOCK}}],
            }
        ),
        encoding="utf-8",
    )
    return path


def _audit(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    main(["audit", str(SPEC), "--format", "json", *args])
    return json.loads(capsys.readouterr().out)


def test_defaults_remove_the_questions_they_answer(
    overlay: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _audit([], capsys)
    after = _audit(["--overlay", str(overlay)], capsys)
    topics = lambda r: Counter(t.split(":")[0] for e in r["undeclared"] for t in e["todos"])  # noqa: E731
    assert topics(before)["visibility"] == len(before["undeclared"]) > 0
    assert topics(after)["visibility"] == 0
    assert topics(after)["limit"] == 0 < topics(before)["limit"]
    assert topics(after)["pagination"] < topics(before)["pagination"]  # style none confirmed
    widgets = lambda r: next(e for e in r["undeclared"] if e["path"] == "/widgets")  # noqa: E731
    # nothing in styles.yaml says where the pages of /widgets start: asked, then answered
    assert any("first-page" in t for t in widgets(before)["todos"])
    assert not any(t.startswith("pagination") for t in widgets(after)["todos"])
    assert after["todos"] < before["todos"]
    assert "x-completeness-defaults answered" in after["summary"]


def test_search_limit_and_id_fields_become_values(
    overlay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.yaml"
    _audit(["--overlay", str(overlay), "--emit-overlay", str(draft)], capsys)
    actions = yaml.safe_load(draft.read_text(encoding="utf-8"))["actions"]
    decls = {a["target"]: a["update"]["x-completeness"] for a in actions}
    search = decls["$.paths['/search/repositories'].get"]
    limit = [r for r in search["reasons"] if r["code"] == "RESULT_LIMIT_REACHED"]
    assert limit == [
        {
            "code": "RESULT_LIMIT_REACHED",
            "limit": 1000,
            "when": {"gt": ["$response.body#/total_count", 1000]},
        }
    ]
    assert all("visibility" not in d["scope"] for d in decls.values())


def test_check_on_spec_defaults_and_draft_reports_exactly_the_remaining_todos(
    overlay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.yaml"
    report = _audit(["--overlay", str(overlay), "--emit-overlay", str(draft)], capsys)
    result = check_spec(SPEC, [overlay, draft])
    assert [d for d in result.diagnostics if d.code != "XC900"] == []
    doc = apply_overlays(load_spec(SPEC), [overlay]).data
    expected = todo_pointers(scan(doc), doc["x-completeness-defaults"])
    assert sorted(d.pointer for d in result.diagnostics) == sorted(expected)
    assert len(expected) == report["todos"]
    listing = next(iter(result.contracts.values())).to_dict()
    assert listing["scope"]["visibility"] == "what the token can read"
    assert "RATE_LIMITED" in [r["code"] for r in listing["reasons"]]


def test_id_fields_pick_the_first_field_the_item_has() -> None:
    from xcompleteness.audit._draft import draft_declaration
    from xcompleteness.detect._listlike import Finding

    f = Finding(
        method="get",
        path="/skus",
        pointer="/paths/~1skus/get",
        operation_id="listSkus",
        kind="collection",
        why=("array response",),
        style="none",
        items="$response.body#",
        item_fields=("price", "sku", "name"),
    )
    asked = draft_declaration(f)
    assert "id" not in asked and any(t.startswith("id:") for t in asked["x-todo"])
    answered = draft_declaration(f, {"drafts": {"id-fields": ["name", "sku"]}})
    assert answered["id"] == "/name"
    assert not any(t.startswith("id:") for t in answered["x-todo"])
    assert draft_declaration(f, {"drafts": {"id-fields": ["uuid"]}}).get("id") is None
