"""Issue 19 §1, round 6: classes found by studying round 5's held-out errors (now tuning), on
cut-down shapes (specs/unseen_round6.yaml).

* an envelope holding several total-like fields (``{count, total, hasMore, data}``), none
  described, gives no evidence which counts every item: ``response.total`` is drafted under a
  pagination TODO naming every candidate, never a silent pick; when exactly one is described as
  counting all items ("The total number of ... matching"), it is the total, asked nothing;
* ``start`` beside ``end``/``duration`` bounds a time window, not a position: beside a page
  number the walk pages (a silent offset walk on ``start`` would skip or repeat items);
* items without an identifier that carry a ``count`` are counts per distinct value: the drafted
  collection asks whether it is an aggregate, paged or not;
* an unpaged operation whose path ends in the word ``summary`` (``impact-summary``) reads one
  summary: asked whether it lists;
* the kind question for a search word the API addresses by id names the word once (round 5
  printed the path prefix twice).
"""

from __future__ import annotations

from support.unseen import findings_by_path
from support.unseen import todos as _todos
from xcompleteness.audit._draft import draft_declaration

BY_PATH = findings_by_path("unseen_round6.yaml")
FOUND = list(BY_PATH.values())


def test_several_undescribed_totals_are_asked_naming_each() -> None:
    f = BY_PATH["/boats"]
    decl = draft_declaration(f)
    assert decl["pagination"]["response"]["total"] in (
        "$response.body#/count",
        "$response.body#/total",
    )
    [todo] = [t for t in _todos(decl, "pagination") if "total-like" in t]
    assert "count ($response.body#/count)" in todo and "total ($response.body#/total)" in todo


def test_a_total_described_as_counting_all_items_is_the_total_asked_nothing() -> None:
    f = BY_PATH["/sails"]
    decl = draft_declaration(f)
    assert decl["pagination"]["response"] == {"total": "$response.body#/total"}
    assert f.total_doubt is None and not _todos(decl, "pagination")


def test_start_beside_end_and_duration_is_a_window_not_an_offset() -> None:
    f = BY_PATH["/docks/{dock_id}/visits"]
    assert f.style == "page" and f.request == {"page": "page", "size": "limit"}
    summary = {f.path for f in FOUND}
    # the summary paged by nothing but its window is no listing at all
    assert "/docks/{dock_id}/tide/{tide}/summary" not in summary


def test_id_less_items_carrying_a_count_ask_whether_they_are_an_aggregate() -> None:
    f = BY_PATH["/docks/{dock_id}/visits/count"]
    assert f.kind == "collection" and f.kind_other == "aggregate"
    [todo] = _todos(draft_declaration(f), "kind")
    assert "'count'" in todo and "set kind: aggregate" in todo


def test_an_unpaged_summary_path_asks_whether_it_lists() -> None:
    f = BY_PATH["/docks/{dock_id}/impact-summary"]
    assert f.listing_doubt is not None and "impact-summary" in f.listing_doubt
    assert _todos(draft_declaration(f), "kind")


def test_the_addressed_search_word_question_names_the_word_once() -> None:
    f = BY_PATH["/lookup/related/{column}"]
    [todo] = _todos(draft_declaration(f), "kind")
    assert "search word 'lookup' " in todo and "(/lookup/{...})" in todo
    assert todo.count("/lookup") == 1
