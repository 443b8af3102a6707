"""Issue 19 §1, round 4: classes found by studying round 3's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round4.yaml).

* a body with several arrays that could be the results (``{numFound, objects: [string],
  arrivals: [Visit], departures: [Visit]}``) drafts its items under a TODO naming them, unless a
  conventional name holding objects stands beside plain-value arrays only;
* ``kind`` is stated only on strong evidence: an unpaged array of id-less rows ("grouped by
  months") asks whether it is an aggregate, an operationId alone saying "query" asks whether it is
  a search (a search word in the path or a query-text parameter settles it);
* a bare array on a path ending in a parameter, or prose reading one thing ("get next ...",
  "by ID"), asks whether the operation lists at all;
* a list envelope wrapped in one XML-style result element (``{BuoyList: {Marker, NextMarker,
  IsTruncated, Items: [...]}}``, typed only under ``text/xml``) is found with its cursor; a
  single object holding an array under one element is not.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan_all

SPEC = yaml.safe_load((Path(__file__).parent / "specs" / "unseen_round4.yaml").read_text("utf-8"))
FOUND, _ = scan_all(SPEC)
BY_PATH = {f.path: f for f in FOUND}


def _todos(decl: dict, topic: str) -> list[str]:
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]


def test_several_arrays_that_could_be_the_results_ask_which_one() -> None:
    decl = draft_declaration(BY_PATH["/berths/{berth_id}/visits"])
    [todo] = _todos(decl, "items")
    assert "several arrays" in todo
    for name in ("objects", "arrivals", "departures"):
        assert name in todo


def test_a_conventional_items_array_beside_plain_value_arrays_is_not_asked() -> None:
    f = BY_PATH["/ships"]
    assert f.items == "$response.body#/items" and f.items_doubt is None
    assert not _todos(draft_declaration(f), "items")


def test_an_unpaged_array_of_rows_without_id_asks_whether_it_is_an_aggregate() -> None:
    f = BY_PATH["/tides/{tide_id}/bymonths"]
    assert f.kind == "collection" and f.kind_other == "aggregate"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "set kind: aggregate" in todo
    # items with an identifier are records: no question
    assert BY_PATH["/cranes"].kind_doubt is None
    assert not _todos(draft_declaration(BY_PATH["/cranes"]), "kind")


def test_an_id_field_answered_in_the_defaults_settles_the_aggregate_question() -> None:
    f = BY_PATH["/tides/{tide_id}/bymonths"]
    field = sorted(f.item_fields)[0]
    decl = draft_declaration(f, {"drafts": {"id-fields": [field]}})
    assert decl["id"] == f"/{field}"
    assert not _todos(decl, "kind")  # records identified by the answered field
    # an answer naming no field of the item settles nothing: the question stays
    decl = draft_declaration(f, {"drafts": {"id-fields": ["no_such_field"]}})
    [todo] = _todos(decl, "kind")
    assert "set kind: aggregate" in todo


def test_a_search_named_only_by_its_operation_id_asks_whether_it_is_a_collection() -> None:
    f = BY_PATH["/v1/pilot/status/all"]
    assert f.kind == "search" and f.kind_other == "collection"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "set kind: collection" in todo
    settled = BY_PATH["/v1/pilots/search"]  # the path says search
    assert settled.kind == "search" and settled.kind_doubt is None


def test_a_bare_array_read_by_id_or_of_the_next_thing_asks_whether_it_lists() -> None:
    for path, said in (
        ("/moorings/{mooring_id}", "{mooring_id}"),
        ("/locks/{token}/queue/poll", "next"),
    ):
        f = BY_PATH[path]
        assert f.listing_doubt is not None and said in f.listing_doubt, path
        [todo] = _todos(draft_declaration(f), "kind")
        assert "kind: none" in todo and "add the array" not in todo, path
    assert BY_PATH["/cranes"].listing_doubt is None


def test_a_list_envelope_in_one_xml_result_element_is_found_with_its_cursor() -> None:
    f = BY_PATH["/buoys"]
    assert f.items == "$response.body#/BuoyList/Items"
    assert f.style == "cursor" and f.request.get("cursor") == "Marker"
    decl = draft_declaration(f)
    assert "/BuoyList/NextMarker" in str(decl["pagination"])
    assert "/buoys/{buoy_id}" not in BY_PATH  # one object holding an array: no listing
