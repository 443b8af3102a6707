"""audit drafts an unpaged listing capped by its page-size parameter (style none with
request.size and max-page-size, RESULT_LIMIT_REACHED): a full answer then reads partial even if
nobody reviews the draft.

specs/size_caps.yaml has one unpaged listing per way a spec states the cap: a schema
``maximum`` (drafted, nothing asked), a ``default`` only (drafted at the default, asked), a
maximum said in the description (drafted, asked), nothing (the smallest size the parameter
accepts: its ``minimum``, else 1; asked), and a
``first`` described as an offset (no cap drafted: the walk would send a position; asked). The
drafts check clean but for their TODOs, and the generated client reads a full answer of the
drafted listing as RESULT_LIMIT_REACHED.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from support.fault_server import serve
from support.gen import import_generated
from support.unseen import emitted_drafts
from xcompleteness import api
from xcompleteness.emit._generate import generate
from xcompleteness.emit._write import write_tree

SPEC = Path(__file__).parent / "specs" / "size_caps.yaml"


def _drafts(tmp_path: Path) -> dict[str, dict]:
    return emitted_drafts(SPEC, tmp_path)


def _pagination_todos(decl: dict) -> list[str]:
    return [t for t in decl.get("x-todo", []) if t.startswith("pagination:")]


def _capped(decl: dict, name: str, cap: int) -> None:
    assert decl["pagination"] == {"style": "none", "request": {"size": name}, "max-page-size": cap}
    assert {"code": "RESULT_LIMIT_REACHED"} in decl["reasons"]


def test_a_schema_maximum_is_the_cap_and_asks_nothing(tmp_path):
    decl = _drafts(tmp_path)["/alerts"]
    _capped(decl, "limit", 100)
    assert _pagination_todos(decl) == []


def test_a_default_only_caps_at_the_default_and_asks(tmp_path):
    decl = _drafts(tmp_path)["/incidents"]
    _capped(decl, "count", 25)
    [todo] = _pagination_todos(decl)
    assert "no maximum for count" in todo and "default 25" in todo


def test_a_maximum_said_in_words_is_the_cap_and_asks(tmp_path):
    decl = _drafts(tmp_path)["/notices"]
    _capped(decl, "per_page", 50)
    [todo] = _pagination_todos(decl)
    assert "read from per_page's description" in todo


def test_a_range_of_valid_values_said_in_words_is_the_cap_over_the_default(tmp_path):
    # "Valid values: 1 to 10. Default: 1." (Amazon SQS's MaxNumberOfMessages): the cap is 10,
    # asked; main read no maximum there and capped the answer at the default 1
    decl = _drafts(tmp_path)["/batches"]
    _capped(decl, "limit", 10)
    [todo] = _pagination_todos(decl)
    assert "read from limit's description" in todo


def test_nothing_stated_caps_at_the_smallest_size_and_asks(tmp_path):
    # no maximum, no default: any larger guess (main drafted 10) may be above the API's own
    # maximum, and an API that clamps silently would answer short of it and read complete
    decl = _drafts(tmp_path)["/warnings"]
    _capped(decl, "limit", 1)
    [todo] = _pagination_todos(decl)
    assert "neither a maximum nor a default" in todo and "smallest size the API accepts" in todo


def test_a_minimum_only_caps_at_the_minimum_never_below_it(tmp_path):
    # the API refuses a size below its minimum: a cap of 10 would fail every call
    decl = _drafts(tmp_path)["/digests"]
    _capped(decl, "limit", 20)
    [todo] = _pagination_todos(decl)
    assert "schema minimum 20" in todo


def test_an_unstated_maximum_that_clamps_silently_never_reads_complete(tmp_path):
    """The draft of ``/warnings`` (no maximum, no default, TODO unanswered), generated and walked
    against a loopback API whose own maximum is 5, which it applies silently, holding 8
    warnings. A drafted guess of 10 sent limit=10, got 5 and read the answer complete."""
    _drafts(tmp_path)
    write_tree(
        tmp_path / "gen", generate(SPEC, (tmp_path / "draft.yaml",), "audit_size_floor").files
    )
    pkg = import_generated(tmp_path / "gen", "audit_size_floor")
    sent: list[str | None] = []
    app = FastAPI()

    @app.get("/warnings")
    def warnings(request: Request) -> dict:
        raw = request.query_params.get("limit")
        sent.append(raw)
        size = min(int(raw) if raw else 5, 5)  # clamped silently to the API's own maximum
        return {"items": [{"id": f"w{i}", "title": "t"} for i in range(8)][:size]}

    with serve(app) as base, pkg.Client(base) as client:
        answer = client.list_warnings.collect()
        asked = client.list_warnings.collect(limit=50)
    for result in (answer, asked):
        assert not result.complete and len(result.items) == 1
        assert [(r.code, r.limit) for r in result.reasons] == [("RESULT_LIMIT_REACHED", 1)]
    assert sent == ["1", "1"]


def test_a_size_that_may_be_a_position_is_not_drafted_as_a_cap(tmp_path):
    decl = _drafts(tmp_path)["/sessions"]
    assert decl["pagination"] == {"style": "none"}
    assert "RESULT_LIMIT_REACHED" not in str(decl.get("reasons"))
    [todo] = _pagination_todos(decl)
    assert "may describe a position" in todo and "max-page-size" in todo


def test_a_sibling_that_reads_like_a_page_position_keeps_the_cap_and_asks(tmp_path):
    # pagesToPass and the header nextToken are no position any paging rule recognises, but their
    # names say page / next: one capped answer may be a walk by them, so the style is asked (the
    # cap stays: a full answer still reads partial); a plain filter beside the size asks nothing
    drafts = _drafts(tmp_path)
    decl = drafts["/reports"]
    _capped(decl, "limit", 100)
    [todo] = _pagination_todos(decl)
    assert "pagesToPass, nextToken beside the page size limit" in todo
    assert "declare that walk" in todo
    _capped(drafts["/audits"], "limit", 100)
    assert _pagination_todos(drafts["/audits"]) == []


def test_the_drafts_check_clean_but_for_their_todos(tmp_path):
    _drafts(tmp_path)
    result = api.check(SPEC, [tmp_path / "draft.yaml"])
    assert {d.code for d in result.diagnostics} == {"XC900"}
    assert result.exit_code == 0


def test_the_drafted_listing_reads_a_full_answer_as_result_limit_reached(tmp_path):
    """The draft as written (TODOs unanswered), generated and walked against a loopback API
    that honours ``limit`` up to 100 and holds 150 alerts: a full answer is partial."""
    _drafts(tmp_path)
    write_tree(
        tmp_path / "gen", generate(SPEC, (tmp_path / "draft.yaml",), "audit_size_caps").files
    )
    pkg = import_generated(tmp_path / "gen", "audit_size_caps")
    sent: list[str | None] = []
    app = FastAPI()

    @app.get("/alerts")
    def alerts(request: Request) -> dict:
        raw = request.query_params.get("limit")
        sent.append(raw)
        size = min(int(raw) if raw else 20, 100)
        return {"items": [{"id": f"a{i}", "title": "t"} for i in range(150)][:size]}

    with serve(app) as base, pkg.Client(base) as client:
        full = client.list_alerts.collect()
        short = client.list_alerts.collect(limit=200)
    assert sent == ["100", "100"]
    assert len(full.items) == 100 and not full.complete
    assert [(r.code, r.limit) for r in full.reasons] == [("RESULT_LIMIT_REACHED", 100)]
    assert full.continuation.kind == "narrow_query"
    assert not short.complete  # a size above the cap is sent as the cap
