"""Issue 19 §1, round 15: classes found by studying round 14's held-out errors (now tuning) and a
new user's walkthrough, on cut-down shapes (specs/unseen_round15.yaml).

* a statistics read answering one unpaged array of integers ("Show the telescope's statistics")
  is asked whether it lists (MIMIC's statistics reads, one record of counters aligned with a
  header row, were drafted as aggregate listings with no question); a plural read of plain
  strings asks nothing (control);
* one value typed as an array of strings ("Show the telescope's mount file name": no plural, no
  list word) is asked whether it lists;
* a keyset cursor said only in a parameter's description ("It's the value of last_seen_ms from
  the response of last request", Listen Notes' ``last_timestamp_ms``) is a cursor walk on that
  response field, asked how the last page shows it (it was drafted ``style: none``); a time
  filter taking a response value without saying it pages is no cursor (control);
* Magento's ``searchCriteria[currentPage]`` / ``searchCriteria[pageSize]`` are the page and its
  size (the draft capped one answer at 1 and asked whether the listing pages), and the tools
  never offer them to a model; a dotted ``queryOptions.pageSize`` is the page size; a filter
  inside the same family is no paging parameter (control);
* a next page token returned in a response header without a vendor prefix (``NextPageToken``,
  Visma Severa's) feeds the ``pageToken`` cursor (it was "cursor parameter found but no next
  cursor"); an unrelated response header feeds nothing (control);
* a next token whose response header only the description names ("the token of the next page is
  returned in the `acme-continuation` response header"), sent back by a request header described
  as a continuation token: a cursor walk over headers, asked, and the draft overlay adds the
  header to the success response (a schema patch asking too); it was drafted ``style: none``
  (heldout14 read only declared response headers); the same request header without such a
  sentence stays no walk (control);
* a plain ``Id`` beside ``<Api><Resource>Id``, qualified by the API's own name and described as
  the resource's id ("The Order.Id from the observatory database"), is asked whatever ``Id``'s
  own prose says (the rule needed ``Id`` to say "external", "marketplace" ...: a word list); a
  qualified field described as a printed number, a reference qualified otherwise
  (``ParentInvoiceId``, "The id of the parent invoice"), and a qualified id beside a plain ``id``
  (``mirror_field_id``) ask nothing (controls).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import yaml
from support.unseen import SPECS, findings_by_path
from support.unseen import todos as _todos
from xcompleteness import api
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect import PAGING_PARAMS, fold
from xcompleteness.detect._size_words import size_by_words
from xcompleteness.emit.emitters.tool_schemas import _paging_word

FOUND = findings_by_path("unseen_round15.yaml")


def test_a_statistics_read_of_one_unpaged_array_of_integers_is_asked_whether_it_lists() -> None:
    f = FOUND["/telescopes/{num}/get/statistics"]
    assert f.kind == "aggregate" and f.listing_doubt is not None
    assert _todos(draft_declaration(f), "kind")


def test_a_plural_read_of_plain_strings_asks_nothing() -> None:
    # the control: passes on main too
    f = FOUND["/telescopes/{num}/lenses"]
    assert f.kind == "collection" and f.listing_doubt is None and f.kind_doubt is None
    assert not _todos(draft_declaration(f), "kind")


def test_one_value_typed_as_an_array_of_strings_is_asked_whether_it_lists() -> None:
    f = FOUND["/telescopes/{num}/get/mountfile"]
    assert f.listing_doubt is not None and "mount file name" in f.listing_doubt
    assert _todos(draft_declaration(f), "kind")


def test_a_keyset_cursor_said_in_its_description_is_a_cursor_walk_asked_about() -> None:
    f = FOUND["/feeds/{id}"]
    assert f.style == "cursor" and f.request == {"cursor": "last_seen_ms"}
    decl = draft_declaration(f)
    assert decl["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "last_seen_ms"},
        "response": {"next": "$response.body#/last_seen_ms"},
    }
    (todo,) = _todos(decl, "pagination")
    assert "last_seen_ms" in todo and "last page" in todo


def test_a_time_filter_taking_a_response_value_is_no_cursor() -> None:
    # the control: passes on main too
    f = FOUND["/feeds/{id}/recent"]
    assert f.style == "none" and "cursor" not in f.request
    assert not any(s.kind == "next_token" for s in f.signals)


def test_search_criteria_current_page_and_page_size_are_the_page_and_its_size() -> None:
    f = FOUND["/V1/stars/search"]
    assert f.style == "page"
    assert f.request == {"page": "searchCriteria[currentPage]", "size": "searchCriteria[pageSize]"}
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"total": "$response.body#/total_count"}
    assert "max-page-size" not in decl["pagination"]
    param = SimpleNamespace(location="query", schema={"type": "integer"})
    for name in ("searchCriteria[currentPage]", "searchCriteria[pageSize]"):
        assert _paging_word(SimpleNamespace(**vars(param), name=name))  # never a tool argument


def test_a_filter_inside_the_search_criteria_family_is_no_paging_parameter() -> None:
    # the control: passes on main too
    name = "searchCriteria[filterGroups][0][filters][0][field]"
    assert fold(name) not in PAGING_PARAMS
    param = SimpleNamespace(location="query", schema={"type": "string"}, name=name)
    assert not _paging_word(param)


def test_a_dotted_page_size_is_the_page_size() -> None:
    f = FOUND["/planets"]
    assert f.style == "none" and f.request == {"size": "queryOptions.pageSize"}
    assert draft_declaration(f)["pagination"]["max-page-size"] == 50
    assert size_by_words("filter.limit", frozenset({"integer"}), "")


def test_a_next_page_token_header_without_a_vendor_prefix_feeds_the_cursor() -> None:
    f = FOUND["/comets"]
    assert f.style == "cursor" and f.request == {"cursor": "pageToken", "size": "rowCount"}
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"next": "$response.header.NextPageToken"}
    assert not any("no next cursor" in t for t in _todos(decl, "pagination"))


def test_an_unrelated_response_header_feeds_nothing() -> None:
    # the control: passes on main too
    f = FOUND["/comets/archived"]
    assert f.style == "none" and not any(s.kind == "next_token" for s in f.signals)


def test_a_plain_id_beside_a_qualified_id_described_as_the_resources_id_is_asked() -> None:
    f = FOUND["/orders"]
    assert f.id == "/Id" and "ObservatoryOrderId" in f.id_alternatives
    todos = _todos(draft_declaration(f), "id")
    assert todos and "/ObservatoryOrderId" in todos[0]


def test_a_plain_id_beside_a_qualified_printed_number_asks_nothing() -> None:
    # the control: passes on main too
    f = FOUND["/invoices"]
    assert f.id == "/Id" and f.id_alternatives == ()
    assert not _todos(draft_declaration(f), "id")


def test_a_qualified_id_beside_a_plain_id_said_to_be_unique_asks_nothing() -> None:
    # the control: passes on main too
    f = FOUND["/fields"]
    assert f.id == "/id" and f.id_alternatives == ()
    assert not _todos(draft_declaration(f), "id")


def test_a_next_token_header_said_only_in_prose_is_a_cursor_walk_asked_and_patched(
    tmp_path: Path,
) -> None:
    f = FOUND["/lenses"]
    assert f.style == "cursor" and f.request == {"cursor": "continuation"}
    header = "$response.header.acme-continuation"
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"next": header}
    (todo,) = _todos(decl, "pagination")
    assert "acme-continuation" in todo and "only the description" in todo
    out = tmp_path / "draft.yaml"
    assert api.audit(SPECS / "unseen_round15.yaml", emit_overlay=out).report is not None
    actions = yaml.safe_load(out.read_text("utf-8"))["actions"]
    (patch,) = [
        a for a in actions if a["target"] == "$['paths']['/lenses']['get']['responses']['200']"
    ]
    assert "acme-continuation" in patch["update"]["headers"]
    assert patch["x-todo"] and patch["x-todo"][0].startswith("schema:")


def test_a_request_header_cursor_without_a_response_side_stays_no_walk() -> None:
    # the control: passes on main too (capfull's header nextToken keeps its question)
    f = FOUND["/lenses/archived"]
    assert f.style == "none" and "cursor" not in f.request
    assert not any(s.kind == "next_token" for s in f.signals)
