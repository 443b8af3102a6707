"""Issue 19 §1, round 3: classes found by studying round 2's held-out errors (by class only) and
the tuning half, on cut-down shapes (specs/unseen_round3.yaml).

* a listing nothing but its name, prose or parameters shows (no response schema, or one without
  an array) is drafted with a ``kind:`` TODO asking whether it is a listing at all;
* a listing answered in named parts of one item schema (``{parents: [Plant], cuttings: [Plant]}``)
  is found, its items location asked;
* a next link on an operation that takes no paging parameter at all (a shared ``links`` schema)
  is drafted under a pagination TODO;
* a schema-less GET whose path ends in a plural noun, or a schema-less search taking a query text,
  is found under that ``kind:`` TODO; a singular one, or one on a resource named "list", is not;
* a sum of money named ``total`` is no total that makes a single read page; checks named by their
  verb (analyze, exist) and configuration reads (settings, config) are no listings;
* a page parameter whose schema says it may start at 0 (``default: 0``, ``minimum: 0``) is never
  drafted as a page walk, which counts from 1.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect._listlike import scan_all

SPEC = yaml.safe_load((Path(__file__).parent / "specs" / "unseen_round3.yaml").read_text("utf-8"))
FOUND, _ = scan_all(SPEC)
BY_PATH = {f.path: f for f in FOUND}


def _todos(decl: dict, topic: str) -> list[str]:
    return [t for t in decl["x-todo"] if t.startswith(topic + ":")]


def test_a_listing_no_response_schema_shows_asks_whether_it_is_a_listing() -> None:
    for path in ("/beds/{bed_id}/plants", "/beds/{bed_id}/waterings"):
        decl = draft_declaration(BY_PATH[path])
        [todo] = _todos(decl, "kind")
        assert "declares no schema" in todo and "kind: none" in todo, path
        assert _todos(decl, "items"), path


def test_a_listing_whose_schema_shows_its_array_is_not_asked_its_kind() -> None:
    for path in ("/trays", "/plants/{plant_id}/lineage"):
        assert BY_PATH[path].listing_doubt is None, path
        assert not _todos(draft_declaration(BY_PATH[path]), "kind"), path


def test_arrays_of_one_item_schema_in_named_parts_are_one_listing_with_its_items_asked() -> None:
    f = BY_PATH["/plants/{plant_id}/lineage"]
    assert "cuttings, parents" in " ".join(f.why)
    decl = draft_declaration(f)
    assert decl["items"] == "$response.body#" and _todos(decl, "items")
    assert "/plants/{plant_id}/labels" not in BY_PATH  # arrays of strings: one object's fields


def test_a_page_number_whose_schema_starts_at_zero_is_drafted_from_zero() -> None:
    # a walk from 1 would skip the first page; since first-page the draft says where pages start
    for path in ("/seeds", "/pots"):
        decl = draft_declaration(BY_PATH[path])
        assert decl["pagination"]["style"] == "page", path
        assert decl["pagination"]["first-page"] == 0, path
        assert not _todos(decl, "pagination"), path


def test_a_page_number_whose_default_is_one_is_a_page_walk() -> None:
    decl = draft_declaration(BY_PATH["/trays"])
    assert decl["pagination"] == {
        "style": "page",
        "request": {"page": "page", "size": "per_page"},
        "response": {"pages": "$response.body#/total_pages"},
    }


def test_a_next_link_on_an_operation_without_paging_parameters_is_asked() -> None:
    decl = draft_declaration(BY_PATH["/beds/{bed_id}/tags"])
    assert decl["pagination"]["style"] == "next-url"
    [todo] = _todos(decl, "pagination")
    assert "no paging parameter" in todo and "style none" in todo
    # with a page size the next link pages the listing: no question
    decl = draft_declaration(BY_PATH["/beds"])
    assert decl["pagination"] == {
        "style": "next-url",
        "request": {"size": "limit"},
        "response": {"next": "$response.body#/links/next"},
    }
    assert not _todos(decl, "pagination")


def test_a_schema_less_plural_path_or_search_is_found_under_a_kind_todo() -> None:
    for path in ("/beds/{bed_id}/sprinklers", "/find"):
        decl = draft_declaration(BY_PATH[path])
        [todo] = _todos(decl, "kind")
        assert "declares no schema" in todo, path
    assert BY_PATH["/find"].kind == "search"
    assert "/beds/{bed_id}/gardener" not in BY_PATH  # a singular noun: one object
    assert "/lists/{list_id}/bed" not in BY_PATH  # "list" names a resource here, not a verb


def test_a_get_whose_every_success_has_no_content_is_no_listing() -> None:
    # 204 and 205 carry no body by HTTP's own definition: nothing there can be a list
    # (GitHub's ``GET /repos/{owner}/{repo}/vulnerability-alerts`` answers 204 or 404)
    assert "/beds/{bed_id}/sprinkler-alerts" not in BY_PATH
    # a 200 beside the 204 may still carry the undescribed list: asked, as before
    decl = draft_declaration(BY_PATH["/beds/{bed_id}/sprinkler-logs"])
    [todo] = _todos(decl, "kind")
    assert "declares no schema" in todo


def test_single_reads_and_checks_holding_one_array_are_no_listings() -> None:
    for path in ("/invoices/{invoice_id}", "/query/analyze", "/me/trays/plants-exist"):
        assert path not in BY_PATH, path
    assert "/config/settings/auth" not in BY_PATH
    assert BY_PATH["/threshold_settings"].items == "$response.body#"  # a bare array still lists
