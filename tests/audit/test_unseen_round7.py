"""Issue 19 §1, round 7: classes found by studying round 6's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round7.yaml).

* a ``Link`` header the response declares with nothing describing it (no description, no
  example) is no evidence that it links pages: beside a page number the draft pages by the
  number and asks (the advice names style page), beside a described next link in the body it
  follows that link; a described Link header (GitHub's carries an example) still walks;
* an aggregate named only by its path (``aggregated-pests``) whose items carry an identifier
  asks whether it is a collection of those records;
* an operationId ending in "...SearchResults" names a search: a POST answering its matches is
  a listing (kind search);
* report rows read by POST under a ``reporting`` segment (filters in the body) are a listing of
  kind aggregate;
* an envelope holding one array named after the path's resource beside one other field (an
  export's checkpoint) wraps the items;
* an operation described as a list ("Get the list of ...") whose response schema shows one
  object without any array (GitLab types its lists as one item) is found, asked whether it lists.
"""

from __future__ import annotations

from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

BY_PATH = findings_by_path("unseen_round7.yaml")


def test_an_undescribed_link_header_beside_a_page_number_pages_and_asks() -> None:
    f = BY_PATH["/orchards/{orchard_id}/trees"]
    assert f.style == "page" and f.request == {"page": "page", "size": "perPage"}
    decl = draft_declaration(f)
    assert decl["pagination"]["style"] == "page"
    [todo] = [t for t in _todos(decl, "pagination") if "Link header" in t]
    assert "(style page)" in todo and "style link-header walks as well" in todo
    assert "/paths/~1orchards~1{orchard_id}~1trees/post/responses/200/headers/Link" in todo


def test_an_undescribed_link_header_beside_a_described_body_link_follows_the_body() -> None:
    f = BY_PATH["/orchards/{orchard_id}/trees/{tree_id}/grafts"]
    assert f.style == "next-url" and f.link_doubt is None
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"next": "$response.body#/links/next"}


def test_a_described_link_header_still_walks_by_the_header() -> None:
    # the control: passes on main too (the rule must not reach a described header)
    f = BY_PATH["/seasons"]
    assert f.style == "link-header"
    assert draft_declaration(f)["pagination"]["style"] == "link-header"


def test_an_aggregate_named_by_its_path_whose_items_carry_ids_asks_for_collection() -> None:
    f = BY_PATH["/orchards/{orchard_id}/history/{harvest_id}/aggregated-pests"]
    assert f.kind == "aggregate" and f.kind_other == "collection" and f.id == "/id"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "own identifier (/id)" in todo and "set kind: collection" in todo


def test_an_operation_id_ending_in_search_results_is_a_search() -> None:
    f = BY_PATH["/Fruit/RemoteSearch/Apple"]
    assert f.method == "post" and f.kind == "search" and f.items == "$response.body#"


def test_report_rows_read_by_post_are_an_aggregate_listing() -> None:
    f = BY_PATH["/reporting/counts/harvests"]
    assert f.method == "post" and f.kind == "aggregate" and f.kind_doubt is None
    assert f.items == "$response.body#/results"


def test_one_array_named_after_the_path_beside_a_checkpoint_is_the_items() -> None:
    f = BY_PATH["/export/orchard/apples/sync/apples.json"]
    assert f.items == "$response.body#/apples" and f.id == "/id"


def test_a_list_typed_as_one_object_is_found_and_asked_whether_it_lists() -> None:
    f = BY_PATH["/orchards/{orchard_id}/baskets"]
    assert f.listing_doubt is not None and "holds no array" in f.listing_doubt
    assert _todos(draft_declaration(f), "kind")
