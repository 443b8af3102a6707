"""Issue 19 §1, round 5: classes found by studying round 4's held-out errors (now tuning) and the
weaknesses round 4 recorded, on cut-down shapes (specs/unseen_round5.yaml).

* a list envelope ("Get a list of ...") whose one array of records sits under a conventional
  items name beside arrays of plain values and descriptive objects (``{count, ids: [str],
  list_columns: [str], label_columns: {...}, result: [Tree]}``) is found, its items not asked;
* a search word in the path that the API also addresses by an id (``/query/{pk}`` beside
  ``/query/related/{column}``) names a resource: the drafted search asks whether it is a
  collection (a search path nobody addresses, ``/search/fruit``, is not asked);
* a trailing path parameter that selects a subset (an enum, or one named ``filter``) is no read
  of one object: ``/groves/all/{grove_kind}`` and the schema-less
  ``/barns/{barn_id}/crates/{filter}`` are found, ``/groves/{grove_id}`` is not;
* items that are plain strings or integers are their own identity: no "maybe an aggregate"
  question (fractional numbers still ask);
* page numbers whose start nothing in the spec states are asked (first-page 1 is a guess); the
  same parameter stated elsewhere in the API, a positive example, or
  ``x-completeness-defaults.drafts.first-page`` settles it;
* a search named only by its operationId is never a silent ``kind: search`` (guard, round 4),
  and a required ``query`` parameter counts as query text only when its description (if any)
  says text, terms, a match, a name... ("The orchard site to query" names one site).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan_all

SPEC = yaml.safe_load((Path(__file__).parent / "specs" / "unseen_round5.yaml").read_text("utf-8"))
FOUND, _ = scan_all(SPEC)
BY_PATH = {f.path: f for f in FOUND}


def _todos(decl: dict, topic: str) -> list[str]:
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]


def test_records_beside_plain_value_arrays_in_a_described_list_are_the_items() -> None:
    f = BY_PATH["/trees/"]
    assert f.items == "$response.body#/result" and f.items_doubt is None
    assert f.id == "/id" and f.kind == "collection"
    decl = draft_declaration(f)
    assert not _todos(decl, "items") and not _todos(decl, "kind")


def test_a_search_word_the_api_addresses_by_id_asks_whether_it_is_a_collection() -> None:
    f = BY_PATH["/query/related/{column}"]
    assert f.kind == "search" and f.kind_other == "collection"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "/query" in todo and "set kind: collection" in todo
    settled = BY_PATH["/search/fruit"]  # no /search/{...} anywhere: a search
    assert settled.kind == "search" and settled.kind_doubt is None


def test_a_trailing_selector_parameter_is_no_read_of_one_object() -> None:
    f = BY_PATH["/groves/all/{grove_kind}"]  # an enum selects a subset
    assert f.items == "$response.body#/groves" and f.listing_doubt is None
    g = BY_PATH["/barns/{barn_id}/crates/{filter}"]  # no schema: the plural before the filter
    assert g.listing_doubt is not None and "crates" in " ".join(g.why)
    assert "/groves/{grove_id}" not in BY_PATH  # an id addresses one grove


def test_plain_value_items_are_their_own_identity() -> None:
    for path in ("/varieties", "/rows/{row_id}/tree-ids"):  # strings; integers
        f = BY_PATH[path]
        assert f.kind == "collection" and f.kind_doubt is None, path
        assert not _todos(draft_declaration(f), "kind"), path
    f = BY_PATH["/harvest/weights"]  # fractional numbers may be one computed series
    assert f.kind_other == "aggregate"
    assert _todos(draft_declaration(f), "kind")


def test_a_page_start_nothing_states_is_asked() -> None:
    f = BY_PATH["/baskets"]
    assert f.style == "page" and f.first_page_unsaid
    decl = draft_declaration(f)
    [todo] = _todos(decl, "pagination")
    assert "nothing in the spec says" in todo and "first-page: 0" in todo
    assert "drafts.first-page" in todo
    assert "first-page" not in decl["pagination"]


def test_a_page_start_stated_elsewhere_or_by_example_is_not_asked() -> None:
    for path in ("/ladders", "/sheds"):  # pageNumber minimum 1 on /pickers; example 2
        f = BY_PATH[path]
        assert f.style == "page" and not f.first_page_unsaid and f.style_doubt is None, path
        decl = draft_declaration(f)
        assert not _todos(decl, "pagination") and "first-page" not in decl["pagination"], path


def test_the_defaults_answer_an_unstated_page_start_once() -> None:
    f = BY_PATH["/baskets"]
    decl = draft_declaration(f, {"drafts": {"first-page": 1}})
    assert not _todos(decl, "pagination") and "first-page" not in decl["pagination"]
    decl = draft_declaration(f, {"drafts": {"first-page": 0}})
    assert not _todos(decl, "pagination") and decl["pagination"]["first-page"] == 0
    # a start the spec states is not overridden by the defaults
    stated = draft_declaration(BY_PATH["/pickers"], {"drafts": {"first-page": 0}})
    assert "first-page" not in stated["pagination"]


def test_a_search_named_only_by_its_operation_id_is_never_a_silent_kind() -> None:
    f = BY_PATH["/pests/list"]
    assert f.kind == "search" and f.kind_other == "collection"
    assert _todos(draft_declaration(f), "kind")


def test_a_query_parameter_naming_one_thing_is_no_query_text() -> None:
    f = BY_PATH["/orchard/status"]  # "The orchard site to query"
    assert f.kind == "search" and f.kind_other == "collection"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "only the operationId" in todo
    settled = BY_PATH["/orchard/lookup"]  # "Text to match against tree names"
    assert settled.kind == "search" and settled.kind_doubt is None
