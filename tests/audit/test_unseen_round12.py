"""Issue 19 §1, round 12: classes found by studying round 11's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round12_suffix.yaml, specs/unseen_round12.yaml).

* where at least half of an API's paths end in one format suffix (``.json`` on every path of a
  v1.1-style API), the suffix is a response format, not a file name: a schema-less read at
  ``/readers/subscribers.json`` ends in a plural, one whose description reads plural things is
  found (as is "Search for titles ..." at ``/catalogue/search.json``, no parameter at all), each
  asked whether it lists, nothing settled (they were missed: the schema-less rules skipped any
  last segment holding a dot); a read by id whose description reads plural things, a singular
  read and a file name among plain paths (``/oidc/keys.json``) stay no listing (controls);
* a response that declares no schema but shows an example holding an array of objects
  (``{data: {current_page, data: [...]}}``) is found and asked, items left to the reader (it was
  missed); an example holding no array of objects finds nothing (control);
* a read at a path ending in an id where the API also deletes (one record), answering a copy of
  its collection's paged envelope and taking its page parameters, is asked whether it lists (it
  was a settled collection without a question); the paged collection below it is settled as
  before (control).
"""

from __future__ import annotations

import pytest
from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

SUFFIX = findings_by_path("unseen_round12_suffix.yaml")
PLAIN = findings_by_path("unseen_round12.yaml")


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/readers/subscribers.json", "the plural 'subscribers'"),
        ("/branches/nearest.json", "reads plural things ('the branches')"),
        ("/catalogue/search.json", "reads plural things ('titles')"),
    ],
)
def test_a_format_suffix_is_no_file_name_schema_less_reads_are_found_and_asked(
    path: str, said: str
) -> None:
    f = SUFFIX[path]
    assert f.items is None and f.style == "unknown"
    assert f.listing_doubt is not None and said in f.listing_doubt
    decl = draft_declaration(f)
    assert _todos(decl, "kind") and _todos(decl, "items")


@pytest.mark.parametrize(
    "path", ["/saved_queries/show/{id}.json", "/help/configuration.json", "/loans/create.json"]
)
def test_reads_by_id_singular_reads_and_writes_stay_no_listing_under_a_format_suffix(
    path: str,
) -> None:
    # the controls: pass on main too
    assert path not in SUFFIX


def test_a_file_name_among_plain_paths_stays_no_listing() -> None:
    # the control (round 10's .../keys.json): passes on main too
    assert "/oidc/keys.json" not in PLAIN


def test_a_schema_less_response_whose_example_holds_a_page_of_objects_is_found_and_asked() -> None:
    f = PLAIN["/letters/history"]
    assert f.items is None and f.style == "unknown"
    assert f.listing_doubt is not None and "/data/data" in f.listing_doubt
    decl = draft_declaration(f)
    assert _todos(decl, "kind") and _todos(decl, "items")


def test_an_example_holding_no_array_of_objects_finds_nothing() -> None:
    # the control: passes on main too
    assert "/letters/usage" not in PLAIN


def test_a_read_by_id_where_the_api_also_deletes_is_asked_though_its_response_is_paged() -> None:
    f = PLAIN["/letters/{letterId}"]
    assert f.listing_doubt is not None and "{letterId}" in f.listing_doubt
    assert _todos(draft_declaration(f), "kind")


def test_the_paged_collection_below_a_record_is_settled_as_before() -> None:
    # the control: passes on main too
    f = PLAIN["/letters/{letterId}/recipients"]
    assert f.items == "$response.body#/_embedded" and f.style == "page"
    assert f.listing_doubt is None
