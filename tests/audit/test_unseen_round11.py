"""Issue 19 §1, round 11: classes found by studying round 10's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round11.yaml).

* an export or a download (a success body typed as one string, binary or not, under ``text/csv``,
  ``application/zip`` or even ``application/json``) is one file, not an array of items: it is
  excluded with its reason, never drafted (Opendatasoft's exports take ``offset`` and ``limit``
  and were drafted as collections); a list described as a list yet typed as one string stays
  asked, and a response offering JSON beside the file is read through its JSON (controls);
* an entry point answering only hypermedia links (``{links: [{href, rel}]}``) is no listing (it
  was drafted as a collection of links); described as a list, it is asked, never settled on the
  links; links beside the results, and a resource whose own records are called links, are read
  as before (controls);
* an array named like a count (``pages``) that holds objects is the results (Opendatasoft's
  ``GET /pages`` was missed); a number ``pages`` stays a page count (control);
* at a path ending in inputs (no id, no served path before them), the one array whose name ends
  in the path's plural noun is found and asked whether it lists (NamSor's ranked
  ``matchCandidates`` and ``taxonomyClasses`` were missed); reads by id or after a path the API
  serves, and a summary of counts at a literal path, stay no listing (controls);
* plain numbers under a singular name (``softwareVersion: [2, 0, 26]``) are asked whether they
  are one value's parts (it was a settled collection without a question); plural ids ask nothing
  (control);
* a table's rows under an items name beside its headers (``{colHeaders, rowHeaders, data:
  [[...]]}``) are found (they were missed); rows without headers stay no listing (control).
"""

from __future__ import annotations

import pytest
import yaml
from support.unseen import SPECS, excluded_by_path, findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.audit._report import audit_document

SPEC = "unseen_round11.yaml"
BY_PATH = findings_by_path(SPEC)
EXCLUDED = excluded_by_path(SPEC)


@pytest.mark.parametrize("path", ["/{archive}/exports/csv", "/{archive}/exports/geojson"])
def test_an_export_answering_one_file_is_excluded_not_drafted(path: str) -> None:
    assert path not in BY_PATH
    excluded = EXCLUDED[path]
    assert excluded.source == "file" and "string (binary)" in excluded.why


def test_a_list_typed_as_one_string_stays_asked() -> None:
    # the control: passes on main too
    f = BY_PATH["/plates/{plate_id}/observers"]
    assert f.listing_doubt is not None and "/plates/{plate_id}/observers" not in EXCLUDED


def test_a_response_offering_json_beside_the_file_is_read_through_its_json() -> None:
    # the control: passes on main too
    f = BY_PATH["/{archive}/exports/plates"]
    assert f.items == "$response.body#" and f.style == "offset" and f.listing_doubt is None


def test_an_entry_point_answering_only_links_is_no_listing() -> None:
    assert "/" not in BY_PATH and "/" not in EXCLUDED


def test_a_list_said_only_through_links_is_asked_not_settled_on_the_links() -> None:
    f = BY_PATH["/{archive}/shelf_types"]
    assert f.items is None
    assert f.listing_doubt is not None and "hypermedia links" in f.listing_doubt
    decl = draft_declaration(f)
    assert _todos(decl, "kind") and _todos(decl, "items")


@pytest.mark.parametrize(
    ("path", "items"),
    [
        ("/{archive}/shelves", "$response.body#/shelves"),  # links beside the results
        ("/bookmarks/links", "$response.body#/links"),  # the records are links {id, url, title}
    ],
)
def test_links_beside_results_or_as_records_read_as_before(path: str, items: str) -> None:
    # the controls: pass on main too
    f = BY_PATH[path]
    assert f.items == items and f.id == "/id" and f.listing_doubt is None


def test_an_array_named_like_a_count_is_the_results() -> None:
    f = BY_PATH["/pages"]
    assert f.items == "$response.body#/pages"


def test_a_number_named_pages_stays_a_page_count() -> None:
    # the control: passes on main too
    assert BY_PATH["/nights"].items == "$response.body#/items"


@pytest.mark.parametrize(
    ("path", "items"),
    [
        ("/starNameCandidates/{catalogue}/{designation}", "$response.body#/matchCandidates"),
        ("/spectralClasses/{surveyName}", "$response.body#/spectralClasses"),
    ],
)
def test_the_array_a_path_ending_in_inputs_names_is_found_and_asked(path: str, items: str) -> None:
    f = BY_PATH[path]
    assert f.items == items
    assert f.listing_doubt is not None and "only the path's" in f.listing_doubt
    assert [t for t in _todos(draft_declaration(f), "kind") if "only the path's" in t]


@pytest.mark.parametrize(
    "path",
    [
        "/telescopes/{name}",  # after /telescopes, a path the API serves: a read of one member
        "/domes/{dome_id}",  # an id
        "/stations/{station}/visits/views",  # {count, uniques, views}: one summary
    ],
)
def test_reads_of_one_member_and_summaries_stay_no_listing(path: str) -> None:
    # the controls: pass on main too
    assert path not in BY_PATH


def test_plain_numbers_under_a_singular_name_are_asked_whether_they_are_one_value() -> None:
    f = BY_PATH["/softwareVersion"]
    assert f.items == "$response.body#/softwareVersion"
    assert f.listing_doubt is not None and "plain numbers" in f.listing_doubt
    assert [t for t in _todos(draft_declaration(f), "kind") if "one value" in t]


def test_plural_ids_ask_nothing() -> None:
    # the control: passes on main too
    f = BY_PATH["/catalogue/starIds"]
    assert f.items == "$response.body#/starIds" and f.listing_doubt is None


def test_a_tables_rows_beside_its_headers_are_found() -> None:
    f = BY_PATH["/usageAggregate"]
    assert f.kind == "aggregate" and f.items == "$response.body#/data"


def test_rows_without_headers_stay_no_listing() -> None:
    # the control: passes on main too
    assert "/weather/chart" not in BY_PATH


def test_the_audit_summary_reports_the_files_it_excluded() -> None:
    report = audit_document(yaml.safe_load((SPECS / SPEC).read_text("utf-8")), origin=SPEC)
    assert "excluded 2 file response(s) (an export or a download)" in report.summary()
    assert {e.path for e in report.excluded if e.source == "file"} == {
        "/{archive}/exports/csv",
        "/{archive}/exports/geojson",
    }
