"""Issue 19 §1, round 14: classes found by studying round 13's held-out errors (now tuning) and a
new user's walkthrough of three unnamed APIs, on cut-down shapes (specs/unseen_round14.yaml).

* an OData page whose ``NextPageLink`` an example shows as ``""`` on a whole result: the walk
  ends on a missing, null *or empty* link (it was drafted ``{present: link}``, so the last page's
  ``""`` read as another page: a silent wrong end, and a walk that breaks on the last page); a
  nullable link with no such example keeps ``{present: link}`` (control);
* an item whose plain ``Id`` says it is another system's ("Id of the order in the external
  system (marketplace)") beside ``<qualifier><Resource>Id`` from the API's own database: the id is
  asked, naming both (it was drafted ``/Id`` with no question); a plain ``Id`` beside a qualified
  field that says nothing foreign asks nothing (control);
* a next token sent back in a request header (``continuation``: "used to send a continuation
  token") and returned in a vendor-prefixed response header (``acme-continuation``): a cursor
  walk over headers (it was drafted ``style: none``); a trace header asks nothing (control);
* page totals named in the reversed order (``itemsTotal``, ``pagesTotal``) are the total and
  the page count: the page walk ends at ``pagesTotal`` (it was drafted ``end: empty-page`` under
  a TODO saying nothing tells whether more pages exist);
* JSON:API ``page[number]`` / ``page[size]`` are the page and the page size (they were "style not
  recognised" beside ``meta.total_pages``), and the generated tools never offer them to a model;
  a ``filter[name]`` is no paging parameter (control);
* a read at a path ending in a parameter (``/drills/{pid}``, "Drills by PID") that takes no
  paging parameter and answers the very envelope its parent collection pages is asked whether it
  lists (BBC's reads by PID were settled listings); the same envelope at a paged path ending in a
  parameter asks nothing (control);
* "Returns a list with all defined bladestates" typed as one untyped object is found and asked
  (Billbee's enumerations were missed: only "a list of" read as a list); "Returns the default
  bladestate" stays no listing (control);
* an offset position (``startIndex``) and a page size beside an undescribed ``Next`` in a shared
  ``Links`` schema: the draft follows the link but asks whether the API pages by the position
  (OSIsoft's two listings were settled next-url walks once ``maxCount`` read as a size: a link the
  operation leaves unfilled ends the walk early and reads complete); the same link described as
  the next page's URL walks unasked (control).
"""

from __future__ import annotations

from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration
from xcompleteness.detect import PAGING_PARAMS
from xcompleteness.detect._words import fold

FOUND = findings_by_path("unseen_round14.yaml")


def _more(decl: dict) -> dict:
    (reason,) = [r for r in decl["reasons"] if r["code"] == "MORE_PAGES_AVAILABLE"]
    return reason["when"]


def test_a_next_link_an_example_shows_empty_ends_the_walk_when_empty() -> None:
    f = FOUND["/ledgers"]
    assert f.style == "next-url" and f.cursor_end == "empty"
    link = "$response.body#/NextPageLink"
    assert _more(draft_declaration(f)) == {"all": [{"present": link}, {"not-equals": [link, ""]}]}


def test_a_nullable_next_link_ends_when_absent() -> None:
    # the control: drafted the same on main
    f = FOUND["/journals"]
    assert _more(draft_declaration(f)) == {"present": "$response.body#/NextPageLink"}


def test_a_plain_id_another_system_assigned_is_asked_beside_the_own_database_id() -> None:
    f = FOUND["/orders"]
    assert f.id == "/Id" and "WorkshopOrderId" in f.id_alternatives
    todos = _todos(draft_declaration(f), "id")
    assert todos and "/WorkshopOrderId" in todos[0]


def test_a_plain_id_beside_a_qualified_field_saying_nothing_foreign_asks_nothing() -> None:
    # the control: passes on main too
    f = FOUND["/invoices"]
    assert f.id == "/Id" and f.id_alternatives == ()
    assert not _todos(draft_declaration(f), "id")


def test_a_token_in_request_and_response_headers_is_a_cursor_walk() -> None:
    f = FOUND["/tools"]
    assert f.style == "cursor" and f.request == {"cursor": "continuation"}
    decl = draft_declaration(f)
    header = "$response.header.acme-continuation"
    assert decl["pagination"] == {
        "style": "cursor",
        "request": {"cursor": "continuation"},
        "response": {"next": header},
    }
    assert _more(decl) == {"all": [{"present": header}, {"not-equals": [header, ""]}]}
    assert fold("continuation") in PAGING_PARAMS  # the walk owns it: never a tool argument


def test_a_trace_header_is_no_cursor() -> None:
    # the control: passes on main too
    f = FOUND["/tools/archived"]
    assert f.style == "none" and "cursor" not in f.request
    assert not any(s.kind == "next_token" for s in f.signals)


def test_items_total_and_pages_total_are_the_total_and_the_page_count() -> None:
    f = FOUND["/clamps"]
    kinds = {s.kind: s.expression for s in f.signals}
    assert kinds["total"] == "$response.body#/itemsTotal"
    assert kinds["total_pages"] == "$response.body#/pagesTotal"
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"pages": "$response.body#/pagesTotal"}
    assert "end" not in decl["pagination"]
    assert not any("nothing in the response tells" in t for t in _todos(decl, "pagination"))


def test_total_rows_is_a_total() -> None:
    f = FOUND["/orders"]
    kinds = {s.kind: s.expression for s in f.signals}
    assert kinds["total"] == "$response.body#/Paging/TotalRows"


def test_jsonapi_page_number_and_size_are_the_page_and_its_size() -> None:
    f = FOUND["/vises"]
    assert f.style == "page"
    assert f.request == {"page": "page[number]", "size": "page[size]"}
    decl = draft_declaration(f)
    assert decl["pagination"]["request"] == {"page": "page[number]", "size": "page[size]"}
    assert not any("style not recognised" in t for t in _todos(decl, "pagination"))
    assert {fold("page[number]"), fold("page[size]")} <= PAGING_PARAMS


def test_a_jsonapi_filter_is_no_paging_parameter() -> None:
    # the control: passes on main too
    f = FOUND["/vises/unpaged"]
    assert f.style == "none" and f.request == {}
    assert fold("filter[name]") not in PAGING_PARAMS


def test_a_read_by_id_answering_its_collections_envelope_unpaged_is_asked() -> None:
    f = FOUND["/drills/{pid}"]
    assert f.listing_doubt is not None and "DrillsResponse" in f.listing_doubt
    assert _todos(draft_declaration(f), "kind")


def test_a_paged_read_at_a_parameter_answering_the_same_envelope_asks_nothing() -> None:
    # the control: passes on main too (it takes offset and limit: a listing of one family)
    f = FOUND["/bits/{family}"]
    assert f.style == "offset" and f.listing_doubt is None
    assert not _todos(draft_declaration(f), "kind")


def test_a_list_with_all_defined_things_typed_as_an_object_is_found_and_asked() -> None:
    f = FOUND["/enums/bladestates"]
    assert f.listing_doubt is not None
    assert _todos(draft_declaration(f), "kind")


def test_the_default_thing_typed_as_an_object_is_no_listing() -> None:
    # the control: passes on main too
    assert "/enums/bladestate" not in FOUND


def test_an_offset_beside_an_undescribed_shared_next_link_asks_which_walk() -> None:
    f = FOUND["/benches"]
    decl = draft_declaration(f)
    assert decl["pagination"]["style"] == "next-url"
    assert decl["pagination"]["response"]["next"] == "$response.body#/Links/Next"
    (todo,) = _todos(decl, "pagination")
    assert "startIndex" in todo and "style offset" in todo


def test_an_offset_beside_a_next_link_said_to_be_the_next_pages_url_walks_unasked() -> None:
    decl = draft_declaration(FOUND["/stools"])
    assert decl["pagination"]["style"] == "next-url"
    assert _todos(decl, "pagination") == []
