"""Every cell of the decision table in docs/agents.md (DESIGN.md §5 invariant 10).

The test names carry the policy on purpose (the essay: "write the policy into the test name"), so
nobody mistakes these guards for over-caution and deletes them to make a demo smoother.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xcompleteness.runtime.decide import Action, Intent, decide, view_result

CONT = Action.CONTINUE_SEARCH
GO = Action.PROCEED
REFUSE = Action.REFUSE_OR_REQUEST_REVIEW


def tool(status, items, reasons=(), continuation=None, warnings=()):
    """A tool result envelope (DESIGN.md §4)."""
    return {
        "status": status,
        "data": {"service_accounts": [{"id": i} for i in items]},
        "completeness": {
            "complete": status == "complete",
            "reasons": [{"code": c, "origin": "server", "details": {}} for c in reasons],
            "scope": None,
            "continuation": continuation,
        },
        "warnings": [{"code": w} for w in warnings],
        "evidence": None,
    }


NEXT = {"kind": "next_cursor", "cursor": "cursor-2"}
RESULTS = {
    "complete_empty": tool("complete", []),
    "complete_items": tool("complete", ["a", "b"]),
    "partial_empty_more_pages": tool("partial", [], ["MORE_PAGES_AVAILABLE"], NEXT),
    "partial_items_more_pages": tool("partial", ["a"], ["MORE_PAGES_AVAILABLE"], NEXT),
    "partial_empty_deadline": tool(
        "partial", [], ["CLIENT_DEADLINE_EXCEEDED"], {"kind": "retry_with_deadline"}
    ),
    "partial_empty_limit": tool("partial", [], ["RESULT_LIMIT_REACHED"], {"kind": "narrow_query"}),
    "partial_empty_visibility": tool("partial", [], ["VISIBILITY_RESTRICTED"], {"kind": "none"}),
    "partial_empty_pages_and_visibility": tool(
        "partial", [], ["MORE_PAGES_AVAILABLE", "VISIBILITY_RESTRICTED"], NEXT
    ),
    "partial_items_visibility": tool("partial", ["a"], ["VISIBILITY_RESTRICTED"], {"kind": "none"}),
    "error_retry_after": tool("error", [], ["SOURCE_UNAVAILABLE"], {"kind": "retry_after"}),
    "error_no_way_on": tool("error", [], ["CONTRACT_VIOLATION"], {"kind": "none"}),
}

# (result, intent) -> action: the table of docs/agents.md, one row per cell.
R, A, L, C = (
    Intent.READ_ONLY_SUMMARY,
    Intent.ABSENCE_CLAIM,
    Intent.DESTRUCTIVE_ON_LISTED_IDS,
    Intent.DESTRUCTIVE_ON_UNLISTED_COMPLEMENT,
)
TABLE = {
    "complete_empty": {R: GO, A: GO, L: GO, C: GO},
    "complete_items": {R: GO, A: GO, L: GO, C: GO},
    "partial_empty_more_pages": {R: GO, A: CONT, L: REFUSE, C: REFUSE},
    "partial_items_more_pages": {R: GO, A: GO, L: REFUSE, C: REFUSE},
    "partial_empty_deadline": {R: GO, A: CONT, L: REFUSE, C: REFUSE},
    "partial_empty_limit": {R: GO, A: REFUSE, L: REFUSE, C: REFUSE},
    "partial_empty_visibility": {R: GO, A: REFUSE, L: REFUSE, C: REFUSE},
    "partial_empty_pages_and_visibility": {R: GO, A: REFUSE, L: REFUSE, C: REFUSE},
    "partial_items_visibility": {R: GO, A: GO, L: REFUSE, C: REFUSE},
    "error_retry_after": {R: CONT, A: CONT, L: REFUSE, C: REFUSE},
    "error_no_way_on": {R: REFUSE, A: REFUSE, L: REFUSE, C: REFUSE},
}
CELLS = [(name, intent, action) for name, row in TABLE.items() for intent, action in row.items()]


@pytest.mark.parametrize(
    ("name", "intent", "expected"), CELLS, ids=[f"{n}-{i.value}" for n, i, _ in CELLS]
)
def test_every_cell_of_the_decision_table(name, intent, expected):
    result = RESULTS[name]
    targets = [i["id"] for i in result["data"]["service_accounts"]] if intent is L else None
    decision = decide(result, intent, targets=targets)
    assert decision.action is expected, decision
    if expected is not GO and RESULTS[name]["status"] != "complete":
        assert decision.disclose, "an incomplete result's reasons must be disclosed"


def test_essay_fixture_empty_first_page_with_more_pages_means_continue_search_not_absence():
    page = {
        "items": [],
        "complete": False,
        "truncated": False,
        "incomplete_reasons": ["MORE_PAGES_AVAILABLE"],
        "next_cursor": "cursor-2",
    }
    assert decide(page, Intent.ABSENCE_CLAIM).action is CONT


def test_essay_fixture_mutation_after_empty_first_page_is_refused_never_cleanup():
    page = {
        "items": [],
        "complete": False,
        "incomplete_reasons": ["MORE_PAGES_AVAILABLE"],
        "next_cursor": "cursor-2",
    }
    for intent in (C, L):
        decision = decide(page, intent, targets=[])
        assert decision.action is REFUSE
        assert decision.disclose == ("MORE_PAGES_AVAILABLE",)


def test_destructive_on_listed_ids_refuses_targets_the_listing_did_not_return():
    d = decide(RESULTS["complete_items"], L, targets=["a", "zz", "b", "yy"])
    assert d.action is REFUSE and d.outside == ("yy", "zz")


def test_destructive_on_listed_ids_without_targets_is_refused():
    assert decide(RESULTS["complete_items"], L).action is REFUSE


@pytest.mark.parametrize("intent", [L, C])
def test_declared_voiding_warning_refuses_destructive_but_other_warnings_do_not(intent):
    stale = tool("complete", ["a"], warnings=["STALE_INDEX"])
    d = decide(stale, intent, targets=["a"], void_on_warnings=["STALE_INDEX"])
    assert d.action is REFUSE and d.voiding_warnings == ("STALE_INDEX",)
    assert decide(stale, intent, targets=["a"], void_on_warnings=["OTHER"]).action is GO


def test_warnings_never_change_read_only_or_absence_decisions():
    stale = tool("complete", [], warnings=["STALE_INDEX"])
    assert decide(stale, R, void_on_warnings=["STALE_INDEX"]).action is GO
    assert decide(stale, A, void_on_warnings=["STALE_INDEX"]).action is GO


def test_status_complete_contradicted_by_reasons_is_not_trusted():
    liar = tool("complete", [], ["MORE_PAGES_AVAILABLE"], NEXT)
    assert view_result(liar).status == "partial"
    assert decide(liar, C).action is REFUSE
    liar["completeness"]["reasons"] = []
    liar["completeness"]["complete"] = False
    assert decide(liar, A).action is not GO


def test_collect_result_objects_and_pydantic_like_items_are_read():
    obj = SimpleNamespace(
        items=[{"id": 1}, {"id": 2}],
        complete=True,
        reasons=[],
        continuation=None,
        warnings=[],
    )
    assert decide(obj, L, targets=["1", "2"]).action is GO
    obj.complete = False
    obj.reasons = [SimpleNamespace(code="CLIENT_PAGE_LIMIT")]
    obj.continuation = SimpleNamespace(kind="next_cursor")
    assert decide(obj, A).action is GO  # items found: positive evidence
    obj.items = []
    assert decide(obj, A).action is CONT
    assert decide(obj, C).action is REFUSE


def test_custom_reason_codes_are_uncompletable_unless_their_continuation_is_given():
    r = tool("partial", [], ["SHARD_REBALANCING"], {"kind": "retry_after"})
    assert decide(r, A).action is REFUSE
    assert decide(r, A, continuations={"SHARD_REBALANCING": "retry_after"}).action is CONT


@pytest.mark.parametrize("junk", [None, 3, "complete", [], {"items": []}, object()])
def test_unreadable_results_fail_closed(junk):
    assert decide(junk, C).action is REFUSE
    assert decide(junk, A).action is not GO


def test_unknown_intent_is_an_error():
    with pytest.raises(ValueError):
        decide(RESULTS["complete_empty"], "delete_everything")


codes = st.lists(
    st.sampled_from(["MORE_PAGES_AVAILABLE", "VISIBILITY_RESTRICTED", "TIME_BUDGET_EXCEEDED", "X"]),
    min_size=1,
    max_size=3,
)


@given(
    status=st.sampled_from(["partial", "error"]),
    items=st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
    reasons=codes,
    kind=st.sampled_from(["next_cursor", "retry_after", "none", "narrow_query", None]),
    targets=st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=4),
)
def test_property_incomplete_results_never_authorise_destruction_or_empty_absence(
    status, items, reasons, kind, targets
):
    r = tool(status, items, reasons, {"kind": kind} if kind else None)
    assert decide(r, L, targets=targets).action is REFUSE
    assert decide(r, C).action is REFUSE
    if not items:
        assert decide(r, A).action is not GO
