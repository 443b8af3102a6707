"""audit drafts where page numbers start (issue 19: ``pagination.first-page``).

specs/page_base.yaml has one page-numbered listing per way a spec says it: ``minimum: 0``,
``default: 0``, a description saying the first page is 0, ``minimum: 1``, nothing, and signals
that disagree. A stated 0 is drafted as ``first-page: 0`` (no TODO); a stated 1 is the default;
disagreeing signals keep 1 with a TODO naming both, and so does a parameter that says nothing
while the same parameter elsewhere in the API says both (round 5: an unstated page start is
asked, tests/audit/test_unseen_round5.py). The drafts check clean but for their TODOs (a
first-page the parameter refuses would be XC147).
"""

from __future__ import annotations

from pathlib import Path

from support.unseen import emitted_drafts
from xcompleteness import api

SPEC = Path(__file__).parent / "specs" / "page_base.yaml"


def _drafts(tmp_path: Path) -> dict[str, dict]:
    return emitted_drafts(SPEC, tmp_path)


def _pagination_todos(decl: dict) -> list[str]:
    return [t for t in decl.get("x-todo", []) if t.startswith("pagination:")]


def test_a_stated_zero_is_drafted_as_first_page_zero(tmp_path):
    drafts = _drafts(tmp_path)
    for path in ("/bolts", "/nuts", "/screws"):  # minimum 0, default 0, "starts at 0"
        decl = drafts[path]
        assert decl["pagination"]["first-page"] == 0, path
        assert not _pagination_todos(decl), path


def test_a_stated_one_is_the_default(tmp_path):
    decl = _drafts(tmp_path)["/rivets"]  # minimum 1 default 1
    assert "first-page" not in decl["pagination"] and not _pagination_todos(decl)


def test_an_unstated_start_asks_when_the_api_says_both_elsewhere(tmp_path):
    decl = _drafts(tmp_path)["/pins"]  # nothing said; `page` elsewhere says 0 and 1
    assert "first-page" not in decl["pagination"]
    [todo] = _pagination_todos(decl)
    assert "elsewhere in the API says both" in todo and "first-page: 0" in todo


def test_disagreeing_signals_leave_a_todo_naming_both(tmp_path):
    decl = _drafts(tmp_path)["/dowels"]  # minimum 0 but default 1
    assert "first-page" not in decl["pagination"]
    [todo] = _pagination_todos(decl)
    assert "minimum 0" in todo and "default 1" in todo and "first-page: 0" in todo


def test_the_drafts_check_clean_but_for_their_todos(tmp_path):
    _drafts(tmp_path)
    result = api.check(SPEC, [tmp_path / "draft.yaml"])
    assert {d.code for d in result.diagnostics} == {"XC900"}
