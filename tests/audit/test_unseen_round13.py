"""Issue 19 §1, round 13: classes found by studying round 12's held-out errors (now tuning) and a
new user's walkthrough, on cut-down shapes (specs/unseen_round13.yaml).

* a collection whose success response says it was "returned by the search", or that takes a
  parameter described as "Text to find", is asked whether it is a search (it was a settled
  collection, which loses the RESULT_LIMIT_REACHED question of a search: a silent wrong value);
  an undescribed optional ``q`` on a plain collection asks nothing (control);
* a JSON:API page ``{data, included, links, meta}``: ``included`` holds the resources related to
  ``data`` (side-loaded), so ``data`` is the items without a question (every App Store Connect
  collection asked it); another array of objects beside ``data`` still asks (control);
* a next page given as a number (Vercel's ``next``: "Timestamp that must be used to request the
  next page", number or null) is a paging signal: the walk is asked, never drafted ``style:
  none`` with advice to confirm one response holds everything;
* "Returns all Widget Configs." at ``/v1/widget-config``, typed as one object, is found and asked
  (the configuration noun dropped it as one configuration); "Get the lathe configuration" stays
  no listing (control); "Returns all items" whose item holds a value of any JSON type (one of a
  string, number, boolean, object or array) is found and asked (the value hid it as an array);
* an item identified by ``<qualifier><Resource>Id`` (``workStationId`` on ``/stations``, reached
  through ``allOf``) is drafted as the id, and wins over an ``id-fields`` answer of the defaults
  (which drafted ``id: /name``); a ``*Id`` naming another resource stays a reference (control);
* ``recordsNumber`` ("Number of results to include in the response") is a page size; ``daysNumber``
  and ``daysCount`` are not (controls);
* a map described as a list at a path ending in its inputs is found and asked (it was dropped as a
  read of one object); a map at a path ending in an id stays no listing (control).
"""

from __future__ import annotations

from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

FOUND = findings_by_path("unseen_round13.yaml")


def test_a_collection_whose_response_says_search_is_asked_whether_it_is_a_search() -> None:
    f = FOUND["/benches/{benchId}/drawings"]
    assert f.kind == "collection" and f.kind_other == "search"
    assert f.kind_doubt is not None and "returned by the search" in f.kind_doubt
    assert _todos(draft_declaration(f), "kind")


def test_a_parameter_taking_text_to_find_asks_whether_the_collection_is_a_search() -> None:
    f = FOUND["/benches/{benchId}/sketches"]
    assert f.kind_other == "search" and f.kind_doubt is not None and "Text to find" in f.kind_doubt
    assert _todos(draft_declaration(f), "kind")


def test_an_undescribed_optional_q_on_a_collection_asks_nothing_about_its_kind() -> None:
    # the control (NetBox's lists all take an undescribed q): passes on main too
    f = FOUND["/benches/{benchId}/chisels"]
    assert f.kind == "collection" and f.kind_doubt is None
    assert not _todos(draft_declaration(f), "kind")


def test_jsonapi_included_is_side_loaded_not_an_items_candidate() -> None:
    f = FOUND["/v1/saws"]
    assert f.items == "$response.body#/data" and f.items_doubt is None
    decl = draft_declaration(f)
    assert decl["items"] == "$response.body#/data" and not _todos(decl, "items")


def test_another_array_of_objects_beside_data_still_asks() -> None:
    # the control: passes on main too
    f = FOUND["/v1/saws/{id}/parts"]
    assert f.items_doubt is not None and "spares" in f.items_doubt


def test_a_numeric_next_page_is_a_paging_signal_never_style_none() -> None:
    f = FOUND["/v2/clamps"]
    tokens = [s.expression for s in f.signals if s.kind == "next_token"]
    assert any(t.endswith("/pagination/next") for t in tokens)
    assert f.style != "none"
    decl = draft_declaration(f)
    assert decl.get("pagination", {}).get("style") != "none"
    assert not any("no position parameter" in t for t in _todos(decl, "pagination"))


def test_returns_all_configs_typed_as_one_object_is_found_and_asked() -> None:
    f = FOUND["/v1/widget-config"]
    assert f.items is None and f.listing_doubt is not None
    assert _todos(draft_declaration(f), "kind")


def test_one_configuration_stays_no_listing() -> None:
    # the control: passes on main too
    assert "/v1/lathe-config" not in FOUND


def test_an_item_holding_a_value_of_any_type_is_no_array_of_results() -> None:
    f = FOUND["/v1/widget-config/{configId}/items"]
    assert f.items is None and f.listing_doubt is not None
    assert _todos(draft_declaration(f), "kind")


def test_a_qualified_resource_id_reached_through_allof_is_the_id() -> None:
    f = FOUND["/stations"]
    assert f.id == "/workStationId"
    # a defaults answer names the fields of items with no id-like field: never this item's
    answered = draft_declaration(f, {"drafts": {"id-fields": ["name"]}})
    assert answered["id"] == "/workStationId"


def test_an_id_naming_another_resource_stays_a_reference() -> None:
    # the control: passes on main too
    f = FOUND["/stations/{workStationId}/shifts"]
    assert f.id is None


def test_records_number_is_a_page_size() -> None:
    f = FOUND["/stations/{workStationId}/deployments"]
    assert f.request.get("size") == "recordsNumber"
    decl = draft_declaration(f)
    assert any("recordsNumber" in t for t in _todos(decl, "pagination"))


def test_a_count_of_days_is_no_page_size() -> None:
    # the control: passes on main too
    f = FOUND["/stations/{workStationId}/runs"]
    assert "size" not in f.request


def test_a_map_described_as_a_list_at_a_path_ending_in_inputs_is_found_and_asked() -> None:
    f = FOUND["/measures/chart/{toolKey}/{termString}"]
    assert f.listing_doubt is not None and "map" in f.listing_doubt
    decl = draft_declaration(f)
    assert _todos(decl, "kind") and _todos(decl, "items")


def test_a_map_at_a_path_ending_in_an_id_stays_no_listing() -> None:
    # the control: passes on main too
    assert "/measures/{measureId}" not in FOUND
