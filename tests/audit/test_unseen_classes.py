"""Issue 19 §1: the classes of wrong drafts found on APIs no test had used, on cut-down shapes.

specs/unseen_classes.yaml holds one operation per class (written from the tuning half of the
labelled evaluation, tests/audit/eval). Each test asserts the draft is right or carries a TODO of
its topic; the evaluation itself (both halves, with figures) runs in ``make test-corpus``.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness import api
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


# -- second round: what a spec says only in prose, in a request body, or not at all -----------
# specs/unseen_prose.yaml: synthetic shapes (a workshop inventory), one operation per class.

PROSE_SPEC = Path(__file__).parent / "specs" / "unseen_prose.yaml"
PROSE = yaml.safe_load(PROSE_SPEC.read_text("utf-8"))
PROSE_FOUND = {f"{f.method.upper()} {f.path}": f for f in scan_all(PROSE)[0]}


def _prose(key: str) -> dict:
    return draft_declaration(PROSE_FOUND[key])


def test_a_reserved_parameter_is_never_a_position() -> None:
    # "Reserved for the vendor." on a parameter named cursor, though the body carries a cursor
    # to feed it: the walk is the offset's
    decl = _prose("GET /parts")
    assert decl["pagination"] == {
        "style": "offset",
        "request": {"offset": "start_index", "size": "limit"},
        "response": {"total": "$response.body#/total_count"},
    }


def test_a_parameter_described_as_a_cursor_is_one_whatever_its_name() -> None:
    f = PROSE_FOUND["GET /bins"]
    assert f.style == "cursor" and f.request["cursor"] == "resume"
    [todo] = _todos(_prose("GET /bins"), "pagination")
    assert "(style cursor" in todo  # no next cursor in the body: asked, with the right style


def test_a_link_header_said_only_in_prose_is_drafted_with_a_todo_and_its_schema_patch(
    tmp_path: Path,
) -> None:
    decl = _prose("GET /shelves")
    assert decl["pagination"] == {
        "style": "link-header",
        "request": {"size": "limit"},
        "response": {"next": "$response.link.next"},
    }
    [todo] = _todos(decl, "pagination")
    assert "Link header" in todo and "schema patch" in todo
    # the overlay carries the header patch, so check on spec + draft reports only the TODOs
    draft = tmp_path / "draft.yaml"
    result = api.audit(PROSE_SPEC, emit_overlay=draft)
    assert result.report is not None
    overlay = yaml.safe_load(draft.read_text("utf-8"))
    targets = [a["target"] for a in overlay["actions"] if "headers" in a["update"]]
    assert targets == ["$['paths']['/shelves']['get']['responses']['200']"]
    # /parts/{part_id}/revisions declares no body: its draft asks about kind and items
    # (XC900), so XC151 does not ask the same question again
    assert {d.code for d in api.check(PROSE_SPEC, [draft]).diagnostics} == {"XC900"}
    assert {t.split(":")[0] for t in _prose("GET /parts/{part_id}/revisions")["x-todo"]} >= {
        "kind",
        "items",
    }


def test_a_collection_whose_prose_opens_with_search_asks_its_kind() -> None:
    [todo] = _todos(_prose("GET /tools"), "kind")
    assert "Search for tools" in todo and "kind: search" in todo
    # a later mention, a path, an identifier, or a parameter merely using the verb ("ID of the
    # bench to search") is no such evidence
    assert not _todos(_prose("GET /drills"), "kind")


def test_a_cursor_nothing_feeds_loses_to_a_numeric_offset_ending_on_an_empty_page() -> None:
    decl = _prose("GET /orders")
    assert decl["pagination"] == {
        "style": "offset",
        "request": {"offset": "skip", "size": "limit"},
        "end": "empty-page",
    }
    [todo] = _todos(decl, "pagination")
    assert "end: empty-page" in todo and "END_INFERRED" in todo


def test_a_size_only_listing_is_drafted_as_one_answer_capped_by_its_size() -> None:
    # one answer capped by the size (docs/audit.md): a full answer reads RESULT_LIMIT_REACHED;
    # the parameter states no maximum or default, so the cap is the smallest size, asked
    decl = _prose("GET /makers")
    assert decl["pagination"]["style"] == "none"
    assert decl["pagination"]["request"] == {"size": "limit"}
    assert {"code": "RESULT_LIMIT_REACHED"} in decl["reasons"]
    [todo] = _todos(decl, "pagination")
    assert "smallest size the API accepts" in todo and "RESULT_LIMIT_REACHED" in todo
    assert decl["pagination"]["max-page-size"] == 1


def test_a_summary_saying_a_list_of_finds_the_array_named_after_the_path() -> None:
    assert PROSE_FOUND["GET /suppliers"].items == "$response.body#/suppliers"


def test_a_search_requiring_its_query_is_found_with_nested_matches() -> None:
    f = PROSE_FOUND["GET /find-parts"]
    assert f.kind == "search"
    assert _todos(_prose("GET /find-parts"), "items")  # two arrays: a person chooses


def test_a_list_with_no_response_schema_is_found_and_its_paging_asked() -> None:
    f = PROSE_FOUND["GET /parts/{part_id}/revisions"]
    decl = draft_declaration(f)
    assert f.style == "unknown" and "pagination" not in decl
    assert _todos(decl, "items") and _todos(decl, "pagination")


def test_a_post_paged_by_a_request_body_cursor_is_drafted_as_a_body_cursor_under_a_todo() -> None:
    decl = _prose("POST /stock/batch-read")
    assert decl["items"] == "$response.body#/levels"
    pagination = decl["pagination"]
    assert pagination["style"] == "cursor"
    assert pagination["request"] == {"cursor": "$request.body#/cursor"}
    nxt = pagination["response"]["next"]
    assert nxt.startswith("$response.body#/")
    more = [r for r in decl["reasons"] if r["code"] == "MORE_PAGES_AVAILABLE"]
    assert more and more[0]["when"] == {"all": [{"present": nxt}, {"not-equals": [nxt, ""]}]}
    [todo] = _todos(decl, "pagination")
    assert "request body field cursor" in todo and "kind: none" not in todo
    assert "POST /counter/next" not in PROSE_FOUND  # a body `next` is a value, not a cursor


def test_a_cap_answered_with_a_400_is_drafted_as_a_reason_under_a_todo() -> None:
    decl = _prose("GET /invoices")
    assert {
        "code": "RESULT_LIMIT_REACHED",
        "limit": 5000,
        "when": {"equals": ["$statusCode", 400]},
    } in decl["reasons"]
    [todo] = _todos(decl, "limit")
    assert "rejected with a 400 response" in todo  # the sentence, across its line break


def test_a_page_size_cap_on_an_unpaged_search_is_its_cap() -> None:
    [todo] = _todos(_prose("GET /tools/search"), "limit")
    assert "limit: 200" in todo and "scope.covers" in todo


def test_a_count_of_one_page_or_an_estimate_is_no_total_to_end_an_offset_walk_on() -> None:
    for key in ("GET /bolts", "GET /nuts"):
        decl = _prose(key)
        assert PROSE_FOUND[key].signal("total") is None, key
        assert "response" not in decl["pagination"] and decl["pagination"]["end"] == "empty-page"
        assert _todos(decl, "pagination"), key


def test_an_array_only_an_example_shows_is_drafted_with_a_todo_and_its_schema_patch(
    tmp_path: Path,
) -> None:
    decl = _prose("GET /benches.listClamps")
    assert decl["items"] == "$response.body#/clamp_ids"
    [todo] = _todos(decl, "items")
    assert "only an example shows" in todo
    draft = tmp_path / "draft.yaml"
    assert api.audit(PROSE_SPEC, emit_overlay=draft).report is not None
    overlay = yaml.safe_load(draft.read_text("utf-8"))
    patched = [a for a in overlay["actions"] if "clamp_ids" in str(a["update"].get("properties"))]
    assert len(patched) == 1 and patched[0]["update"]["properties"]["clamp_ids"]["type"] == "array"
    # /parts/{part_id}/revisions declares no body: its draft asks about kind and items
    # (XC900), so XC151 does not ask the same question again
    assert {d.code for d in api.check(PROSE_SPEC, [draft]).diagnostics} == {"XC900"}
    assert {t.split(":")[0] for t in _prose("GET /parts/{part_id}/revisions")["x-todo"]} >= {
        "kind",
        "items",
    }


def test_a_listed_array_named_by_the_end_of_the_path_noun_is_the_items() -> None:
    # "List the tool cards": `cards` under /toolCards, beside metadata fields
    f = PROSE_FOUND["GET /benches/{bench_id}/metadata/toolCards"]
    assert f.items == "$response.body#/cards"


def test_an_aggregate_named_by_its_path_that_pages_records_asks_its_kind() -> None:
    f = PROSE_FOUND["GET /stats/lathes"]
    assert f.kind == "aggregate"
    [todo] = _todos(_prose("GET /stats/lathes"), "kind")
    assert "kind: collection" in todo


def test_several_arrays_named_after_the_path_are_a_listing_whose_items_are_asked() -> None:
    decl = _prose("GET /benches/{bench_id}/fixtures")
    assert decl["items"] == "$response.body#" and _todos(decl, "items")


def test_a_page_number_counted_from_zero_is_drafted_from_page_zero() -> None:
    decl = _prose("GET /washers")  # a walk from page 1 would silently skip the first page
    assert decl["pagination"]["style"] == "page" and decl["pagination"]["first-page"] == 0
    assert not _todos(decl, "pagination")


def test_an_offset_that_is_a_time_zone_is_no_position() -> None:
    assert PROSE_FOUND["GET /shifts"].style == "none"
