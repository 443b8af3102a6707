"""Issue 19 §1, round 10: classes found by studying round 9's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round10.yaml).

* an operation that declares no 2xx response, only ``default`` (Reverb's every operation answers
  ``default: Unexpected error``), is read as one whose success response declares no schema: a
  plural path or a summary reading plural things ("Get ripe tomato crates, newest first") finds
  it, always asked whether it lists and where its array is (it was missed: the schema-less rules
  needed a 2xx status); a default whose body is no error's is the one body the spec shows, and its
  array is read; a read by id, and a status read whose default is an error schema, stay no
  listing (controls);
* an unpaged read whose required multi-valued parameter each item echoes (PI Web API's stream-set
  reads take ``webId`` repeated and answer one ``{WebId, Value}`` per stream) is asked whether it
  lists: its answer is bounded by the request (it was a settled collection); a required array the
  items do not echo (a category filter) and a batch parameter beside paging ask nothing
  (controls).
"""

from __future__ import annotations

import pytest
from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

BY_PATH = findings_by_path("unseen_round10.yaml")


def test_a_plural_path_declaring_only_default_is_found_and_asked() -> None:
    f = BY_PATH["/greenhouses/{greenhouse_id}/trays"]
    assert f.status == "default" and f.items is None
    assert f.style == "page" and f.request == {"page": "page", "size": "per_page"}
    assert f.listing_doubt is not None and "no success response" in f.listing_doubt
    decl = draft_declaration(f)
    assert [t for t in _todos(decl, "kind") if "no success response" in t]
    assert _todos(decl, "items")  # no schema: the items are a placeholder under a question


def test_a_summary_reading_plural_things_finds_a_schemaless_read() -> None:
    f = BY_PATH["/my/harvest"]
    assert any("'ripe tomato crates'" in why for why in f.why)
    assert f.listing_doubt is not None
    decl = draft_declaration(f)
    assert _todos(decl, "kind") and _todos(decl, "items")


def test_a_default_body_that_is_no_error_is_read_as_the_success_body() -> None:
    f = BY_PATH["/sensors/{sensor_id}/readings"]
    assert f.status == "default"
    assert f.items == "$response.body#/readings" and f.id == "/id"


@pytest.mark.parametrize(
    "path",
    [
        "/greenhouses/{greenhouse_id}",  # "Get a greenhouse", default only: a read by id
        "/pumps/status",  # default {code, message} "Something went wrong": an error's body
        "/firmware/keys.json",  # "Get keys ...", no schema, at a file name: one document
    ],
)
def test_reads_of_one_thing_declaring_no_success_schema_stay_no_listing(path: str) -> None:
    # the controls: pass on main too
    assert path not in BY_PATH


def test_a_batch_read_of_the_values_its_request_names_is_asked_whether_it_lists() -> None:
    f = BY_PATH["/sensors/values"]
    assert f.items == "$response.body#/items"
    assert f.listing_doubt is not None and "sensorId" in f.listing_doubt
    assert [t for t in _todos(draft_declaration(f), "kind") if "bounded by the request" in t]


@pytest.mark.parametrize(
    "path",
    [
        "/sensors/history",  # the same batch parameter, beside offset/limit: it pages
        "/crops",  # a required array the items do not carry: a filter
    ],
)
def test_a_required_array_that_filters_or_pages_asks_nothing(path: str) -> None:
    # the controls: pass on main too
    f = BY_PATH[path]
    assert f.listing_doubt is None
