"""Issue 19 §1, round 8: classes found by studying round 7's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round8.yaml).

* an unpaged bare array answering a path that ends in a configuration noun (``.../settings/``)
  is found but asked whether it lists: settings are one object or a fixed set of entries, one
  per kind of thing they configure (it was drafted a collection without any question);
* an object of the body made only of two or more arrays of one item shape (a trend chart's
  ``{series: {spring: [...], summer: [...], autumn: [...]}, step}``) is found as an aggregate
  listing, asked whether it is a collection (it was missed: no array at the top, and none of
  the other rules named it).
"""

from __future__ import annotations

from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

BY_PATH = findings_by_path("unseen_round8.yaml")


def test_settings_answered_as_a_bare_array_are_asked_whether_they_list() -> None:
    f = BY_PATH["/hives/{hive_id}/alerts/settings/"]
    assert f.items == "$response.body#"
    assert f.listing_doubt is not None and "'settings'" in f.listing_doubt
    [todo] = _todos(draft_declaration(f), "kind")
    assert "fixed set" in todo


def test_a_bare_array_of_records_at_a_plural_path_is_asked_nothing() -> None:
    # the control: passes on main too (the rule reaches configuration nouns only)
    f = BY_PATH["/hives/{hive_id}/alerts/"]
    assert f.kind == "collection" and f.listing_doubt is None and f.kind_doubt is None
    assert not _todos(draft_declaration(f), "kind")


def test_series_of_one_item_shape_in_the_parts_of_one_object_are_an_aggregate_listing() -> None:
    f = BY_PATH["/hives/all/honey_trend/"]
    assert f.kind == "aggregate" and f.kind_other == "collection" and f.style == "none"
    assert "series" in f.why[0] and "autumn, spring, summer" in f.why[0]
    decl = draft_declaration(f)
    assert decl["kind"] == "aggregate"
    [todo] = _todos(decl, "kind")
    assert "set kind: collection" in todo


def test_arrays_of_different_items_in_one_part_of_a_read_are_no_series() -> None:
    # the control: one inspection holding pests and frames is no listing (as on main)
    assert "/hives/{hive_id}/inspection" not in BY_PATH
