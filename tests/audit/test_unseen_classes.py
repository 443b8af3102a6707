"""Issue 19 §1: the classes of wrong drafts found on APIs no test had used, on cut-down shapes.

specs/unseen_classes.yaml holds one operation per class (written from the tuning half of the
labelled evaluation, tests/audit/eval). Each test asserts the draft is right or carries a TODO of
its topic; the evaluation itself (both halves, with figures) runs in ``make test-corpus``.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan_all

SPEC = yaml.safe_load((Path(__file__).parent / "specs" / "unseen_classes.yaml").read_text("utf-8"))
FOUND, _ = scan_all(SPEC)
BY_PATH = {f.path: f for f in FOUND}


def _todos(decl: dict, topic: str) -> list[str]:
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]


def test_single_reads_are_no_listings() -> None:
    # an example shows an object where the schema implies an array; single-object verbs; a
    # singular path answered in a plural wrapper
    for path in ("/things.info", "/license", "/query/parse", "/Organisation"):
        assert path not in BY_PATH, path


def test_an_always_present_cursor_ends_on_empty_too() -> None:
    decl = draft_declaration(BY_PATH["/things.list"])
    more = decl["reasons"][0]
    expr = "$response.body#/response_metadata/next_cursor"
    assert more == {
        "code": "MORE_PAGES_AVAILABLE",
        "when": {"all": [{"present": expr}, {"not-equals": [expr, ""]}]},
    }


def test_a_nullable_next_url_is_next_url_style_ending_when_absent() -> None:
    decl = draft_declaration(BY_PATH["/Calls.json"])
    assert decl["pagination"] == {
        "style": "next-url",
        "request": {"size": "PageSize"},
        "response": {"next": "$response.body#/next_page_uri"},
    }
    assert decl["reasons"][0]["when"] == {"present": "$response.body#/next_page_uri"}
    assert decl["id"] == "/sid"


def test_the_main_search_with_start_at_is_found_as_an_offset_search() -> None:
    f = BY_PATH["/search"]
    decl = draft_declaration(f)
    assert decl["items"] == "$response.body#/issues"
    assert decl["pagination"] == {
        "style": "offset",
        "request": {"offset": "startAt", "size": "maxResults"},
        "response": {"total": "$response.body#/total"},
    }


def test_deprecated_key_is_demoted_and_a_documented_cap_is_a_todo() -> None:
    f = BY_PATH["/user/search"]
    decl = draft_declaration(f)
    assert decl["id"] == "/accountId"
    assert f.style == "offset"
    assert any("1000" in t for t in _todos(decl, "limit"))
    # no total: the walk ends on an empty page (END_INFERRED), and the draft asks to confirm it
    assert decl["pagination"]["end"] == "empty-page" and _todos(decl, "pagination")


def test_an_event_feed_cursor_is_fed_by_its_next_field() -> None:
    decl = draft_declaration(BY_PATH["/events"])
    assert decl["pagination"]["request"]["cursor"] == "stream_position"
    assert decl["pagination"]["response"] == {"next": "$response.body#/next_stream_position"}


def test_a_text_offset_token_is_a_cursor_whose_next_is_asked_for() -> None:
    decl = draft_declaration(BY_PATH["/tasks"])
    assert decl["id"] == "/gid"
    [todo] = _todos(decl, "pagination")
    assert "cursor parameter offset" in todo and "style cursor" in todo


def test_a_cursor_nothing_feeds_loses_to_an_offset_with_a_total_and_its_cap() -> None:
    decl = draft_declaration(BY_PATH["/folders/{id}/items"])
    assert decl["pagination"]["style"] == "offset"
    assert decl["pagination"]["response"] == {"total": "$response.body#/total_count"}
    assert any("10000" in t for t in _todos(decl, "limit"))


def test_a_named_report_is_an_aggregate() -> None:
    assert BY_PATH["/Reports/BalanceSheet"].kind == "aggregate"


def test_unpaginated_default_never_closes_a_listing_with_a_size_parameter() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/widgets": {
                "get": {
                    "operationId": "listWidgets",
                    "parameters": [
                        {"name": "maxResults", "in": "query", "schema": {"type": "integer"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "w",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "properties": {"id": {"type": "string"}},
                                        },
                                    }
                                }
                            },
                        }
                    },
                }
            }
        },
    }
    [f], _ = scan_all(spec)
    decl = draft_declaration(f, {"drafts": {"unpaginated": "complete"}})
    assert _todos(decl, "pagination")
