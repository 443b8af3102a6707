"""The walk's semantics, each a test, run directly against runtime/walk.py (no HTTP)."""

from __future__ import annotations

import asyncio
import copy
import time

import httpx
import pytest
from support.fault_server import (
    Faults,
    FaultyCollection,
    github_contract,
    native_contract,
)
from support.walk_helpers import FakeClock, envelope, github_fetch, native_fetch, scripted
from xcompleteness.runtime.walk import (
    ApiError,
    AsyncWalker,
    Continuation,
    ContractError,
    FetchTimedOut,
    Limits,
    ResultNotReady,
    Walker,
    WalkFailed,
)

NATIVE = native_contract()


def ids(result):
    return [i["id"] for i in result.items]


# -- following the declared style -------------------------------------------------------------


def test_native_cursor_walk_reads_everything_once_and_ends_on_complete_true():
    coll = FaultyCollection(95)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert result.complete is True
    assert result.reasons == () and result.continuation is None
    assert ids(result) == coll.alive_ids()
    assert result.pages == 10 and result.item_count == 95
    assert result.snapshot == "v1"
    assert result.evidence == "evidence-1"


def test_essay_fixture_empty_first_page_with_more_pages_continues():
    # ../shared/seed: "empty first page with more pages" -> the client continues.
    fixture = {
        "items": [],
        "complete": False,
        "incomplete_reasons": [{"code": "MORE_PAGES_AVAILABLE"}],
        "next_cursor": "cursor-2",
    }
    log = []
    fetch = scripted([(200, {}, fixture), (200, {}, envelope(["a", "b"], snapshot=None))], log)
    result = Walker(NATIVE, fetch).collect()
    assert result.complete is True
    assert ids(result) == ["a", "b"]
    assert log[1].params["cursor"] == "cursor-2"


def test_empty_first_page_from_the_fault_server_is_not_the_end():
    coll = FaultyCollection(30, faults=Faults(empty_first_page=True))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 20})
    assert result.complete and ids(result) == coll.alive_ids() and result.pages == 3


def test_short_pages_cut_by_byte_size_are_not_the_end():
    coll = FaultyCollection(60, faults=Faults(max_bytes=200))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 50})
    assert result.complete and ids(result) == coll.alive_ids()
    assert result.pages > 2  # every page was cut well below the requested 50


def test_link_header_adapter_follows_rel_next_until_it_stops_holding():
    coll = FaultyCollection(95, snapshot="none")
    log = []
    result = Walker(github_contract(), github_fetch(coll, log)).collect({"per_page": 20})
    assert result.complete is True
    assert ids(result) == coll.alive_ids()
    assert result.pages == 5
    assert log[0].url is None and log[1].url.endswith("page=2&per_page=20")
    assert result.snapshot is None


def test_last_item_cursor_stripe_style():
    contract = copy.deepcopy(NATIVE)
    contract.update(mode="adapter", items="$response.body#/data")
    contract["pagination"]["request"]["cursor"] = "starting_after"
    contract["pagination"]["response"].update(next=None, next_last_item="/id")
    contract["reasons"] = [
        {
            "code": "MORE_PAGES_AVAILABLE",
            "when": {"equals": ["$response.body#/has_more", True]},
            "details": {},
            "continuation": "next_cursor",
            "origin": "server",
        }
    ]
    log = []
    fetch = scripted(
        [
            (200, {}, {"data": [{"id": "cus_1"}, {"id": "cus_2"}], "has_more": True}),
            (200, {}, {"data": [], "has_more": True}),
        ],
        log,
    )
    result = Walker(contract, fetch).collect({"limit": 2})
    # An empty page that still says has_more gives nothing to continue from: reported, not ended.
    assert log[1].params["starting_after"] == "cus_2"
    assert result.complete is False
    assert result.reasons[0].code == "CONTRACT_VIOLATION"
    fetch = scripted(
        [
            (200, {}, {"data": [{"id": "cus_1"}], "has_more": True}),
            (200, {}, {"data": [{"id": "cus_2"}], "has_more": False}),
        ]
    )
    result = Walker(contract, fetch).collect()
    assert result.complete and [i["id"] for i in result.items] == ["cus_1", "cus_2"]


def _offset_contract(style: str) -> dict:
    contract = copy.deepcopy(NATIVE)
    contract.update(mode="adapter", items="$response.body#/results")
    req = {"cursor": None, "size": "limit", "offset": None, "page": None}
    resp = {"next": None, "next_last_item": None, "total": None, "pages": None}
    if style == "offset":
        req["offset"], resp["total"] = "offset", "$response.body#/count"
    else:
        req["page"], resp["pages"] = "page", "$response.header.X-Total-Pages"
    contract["pagination"].update(style=style, request=req, response=resp)
    contract["reasons"] = []
    return contract


def test_offset_style_ends_when_items_reach_the_declared_total_not_on_a_short_page():
    log = []
    fetch = scripted(
        [
            (200, {}, {"count": 5, "results": [{"id": 1}, {"id": 2}]}),
            (200, {}, {"count": 5, "results": [{"id": 3}]}),  # short, not the end
            (200, {}, {"count": 5, "results": [{"id": 4}, {"id": 5}]}),
        ],
        log,
    )
    result = Walker(_offset_contract("offset"), fetch).collect({"limit": 2})
    assert result.complete and [i["id"] for i in result.items] == [1, 2, 3, 4, 5]
    assert [r.params["offset"] for r in log] == [0, 2, 3]


def test_offset_style_empty_page_below_total_is_a_repeated_position_not_a_loop():
    fetch = scripted(
        [
            (200, {}, {"count": 9, "results": [{"id": 1}]}),
            (200, {}, {"count": 9, "results": []}),
        ]
    )
    result = Walker(_offset_contract("offset"), fetch).collect()
    assert not result.complete
    assert result.reasons[0].code == "CONTRACT_VIOLATION" and "repeated" in result.reasons[0].what


def test_page_style_ends_at_the_declared_page_count():
    log = []
    pages = [(200, {"X-Total-Pages": "3"}, {"results": [{"id": n}]}) for n in (1, 2, 3)]
    result = Walker(_offset_contract("page"), scripted(pages, log)).collect()
    assert result.complete and result.item_count == 3
    assert [r.params["page"] for r in log] == [1, 2, 3]


def test_adapter_without_a_terminal_signal_is_refused_up_front():
    contract = _offset_contract("offset")
    contract["pagination"]["response"]["total"] = None
    with pytest.raises(ContractError):
        Walker(contract, scripted([]))


# -- reasons ------------------------------------------------------------------------------------


def test_reasons_from_any_page_stay_in_the_final_result_deduplicated():
    coll = FaultyCollection(40, faults=Faults(shard_down_from=2))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert result.complete is False
    assert result.codes == ["SOURCE_UNAVAILABLE"]  # reported by every page after the first once
    assert result.reason("SOURCE_UNAVAILABLE").source == "shard-1"
    assert result.reason("SOURCE_UNAVAILABLE").origin == "server"
    assert result.continuation.kind == "retry_after"
    assert result.evidence is None
    # the shard that failed after another returned data: its rows on page 1 are kept
    assert set(ids(result)) < set(coll.alive_ids())


def test_permission_revoked_mid_scan_is_an_explicit_reason():
    coll = FaultyCollection(40, faults=Faults(revoke_from=3))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert not result.complete and result.codes == ["VISIBILITY_RESTRICTED"]
    assert result.continuation.kind == "none"


def test_adapter_when_conditions_read_body_and_headers():
    coll = FaultyCollection(1500, snapshot="none", faults=Faults(incomplete_from=2))
    coll.faults.revoke_from = 1
    result = Walker(github_contract(), github_fetch(coll)).collect({"per_page": 100})
    codes = set(result.codes)
    assert codes == {"TIME_BUDGET_EXCEEDED", "RESULT_LIMIT_REACHED", "VISIBILITY_RESTRICTED"}
    assert result.reason("RESULT_LIMIT_REACHED").limit == 1000
    assert result.item_count == 1000  # the cap: items past it are unreachable, and we say so
    # the most actionable continuation wins: retry with a longer deadline
    assert result.continuation.kind == "retry_with_deadline"


def test_always_condition_is_reported_even_on_the_last_page():
    contract = github_contract()
    contract["reasons"][3]["when"] = "always"
    result = Walker(contract, github_fetch(FaultyCollection(3, snapshot="none"))).collect()
    assert not result.complete and result.codes == ["VISIBILITY_RESTRICTED"]


# -- client limits ------------------------------------------------------------------------------


def test_essay_fixture_page_limit_is_the_clients_reason_with_a_cursor_to_resume():
    coll = FaultyCollection(100)
    walker = Walker(NATIVE, native_fetch(coll))
    first = walker.collect({"limit": 10}, Limits(max_pages=3))
    assert first.complete is False
    assert [(r.code, r.origin, r.max_pages) for r in first.reasons] == [
        ("CLIENT_PAGE_LIMIT", "client", 3)
    ]
    assert first.continuation.kind == "next_cursor" and first.continuation.cursor
    assert first.item_count == 30 and first.pages == 3
    rest = walker.collect({"limit": 10}, resume=first.continuation)
    assert rest.complete
    assert ids(first) + ids(rest) == coll.alive_ids()


def test_limit_reached_exactly_on_the_last_page_is_still_complete():
    coll = FaultyCollection(30)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10}, Limits(max_pages=3))
    assert result.complete and result.item_count == 30


def test_item_limit():
    coll = FaultyCollection(100)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10}, Limits(max_items=25))
    assert not result.complete and result.item_count == 30
    reason = result.reasons[0]
    assert (reason.code, reason.origin, reason.max_items) == ("CLIENT_ITEM_LIMIT", "client", 25)
    assert result.continuation.kind == "next_cursor"


def test_deadline_with_an_injected_clock():
    clock = FakeClock()
    coll = FaultyCollection(100)
    inner = native_fetch(coll)

    def slow_fetch(req):
        clock.now += 1.0
        return inner(req)

    walker = Walker(NATIVE, slow_fetch, clock=clock)
    result = walker.collect({"limit": 10}, Limits(deadline=2.5))
    assert not result.complete and result.pages == 3
    reason = result.reasons[0]
    assert (reason.code, reason.origin, reason.deadline_s) == (
        "CLIENT_DEADLINE_EXCEEDED",
        "client",
        2.5,
    )
    assert result.continuation.kind == "next_cursor" and result.continuation.cursor


def _timing_out_after(clock, coll, pages_ok):
    """A fetcher whose requests take 1 s each and time out (past the deadline) after pages_ok."""
    inner = native_fetch(coll)
    calls = []

    def fetch(req):
        calls.append(req)
        clock.now += 1.0
        if len(calls) > pages_ok:
            raise FetchTimedOut(httpx.ReadTimeout("slow"))
        return inner(req)

    return fetch


def test_deadline_stop_holding_a_position_resumes_with_next_cursor():
    # The one continuation rule (docs/client.md): CLIENT_DEADLINE_EXCEEDED defaults to
    # retry_with_deadline (spec_ext/codes.json), but a walk that read a page resumes from it.
    clock = FakeClock()
    coll = FaultyCollection(30)
    walker = Walker(NATIVE, _timing_out_after(clock, coll, 1), clock=clock)
    first = walker.collect({"limit": 10}, Limits(deadline=1.5))
    assert first.codes == ["CLIENT_DEADLINE_EXCEEDED"] and first.item_count == 10
    assert first.continuation.kind == "next_cursor" and first.continuation.cursor
    rest = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10}, resume=first.continuation)
    assert rest.complete and ids(first) + ids(rest) == coll.alive_ids()


def test_deadline_before_the_first_page_falls_back_to_retry_with_deadline():
    clock = FakeClock()
    walker = Walker(NATIVE, _timing_out_after(clock, FaultyCollection(30), 0), clock=clock)
    result = walker.collect({"limit": 10}, Limits(deadline=0.5))
    assert result.codes == ["CLIENT_DEADLINE_EXCEEDED"] and result.item_count == 0
    assert result.continuation.kind == "retry_with_deadline"


def test_client_limit_keeps_every_server_reason():
    coll = FaultyCollection(100, faults=Faults(shard_down_from=1))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10}, Limits(max_pages=2))
    assert result.codes == ["SOURCE_UNAVAILABLE", "CLIENT_PAGE_LIMIT"]
    assert result.continuation.kind == "next_cursor"


# -- snapshot and cursors -----------------------------------------------------------------------


def test_frozen_snapshot_survives_writes_between_pages():
    def churn(c, n):
        if n > 1:
            c.insert(rank=0)
            c.delete(c.alive_ids()[-1])

    coll = FaultyCollection(50, between=churn)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert result.complete and ids(result) == coll.alive_ids(1)


def test_snapshot_change_between_pages_is_reported_and_never_merged():
    def churn(c, n):
        if n == 3:
            c.insert()

    coll = FaultyCollection(50, snapshot="live", between=churn)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert not result.complete
    assert [(r.code, r.origin) for r in result.reasons] == [("SNAPSHOT_CHANGED", "client")]
    assert result.continuation.kind == "restart"
    assert result.pages == 2 and result.item_count == 20  # page 3 came from another snapshot
    assert result.snapshot == "v1"


def test_repeated_cursor_is_a_contract_violation_never_a_loop():
    coll = FaultyCollection(50, faults=Faults(repeat_cursor_at=2))
    log = []
    result = Walker(NATIVE, native_fetch(coll, log)).collect({"limit": 10})
    assert len(log) == 2
    assert not result.complete
    reason = result.reasons[0]
    assert (reason.code, reason.origin) == ("CONTRACT_VIOLATION", "client")
    assert "repeated cursor" in reason.what


def test_expired_cursor_ends_the_walk_without_restarting():
    coll = FaultyCollection(50, faults=Faults(expire_from=3))
    log = []
    result = Walker(NATIVE, native_fetch(coll, log)).collect({"limit": 10})
    assert len(log) == 3  # never a silent restart from the top
    assert not result.complete and result.codes == ["CURSOR_EXPIRED"]
    assert result.continuation == Continuation(kind="restart")
    assert result.item_count == 20 and result.evidence is None


def test_rejected_cursor_is_reported_as_expired():
    coll = FaultyCollection(50)
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10}, resume="tampered.abc")
    assert not result.complete and result.codes == ["CURSOR_EXPIRED"]
    assert result.reasons[0].message == "cursor rejected by the server"
    assert result.continuation.kind == "restart" and result.items == []


def test_adapter_declared_cursor_expiry_status():
    coll = FaultyCollection(100, snapshot="none", faults=Faults(expire_from=2))
    result = Walker(github_contract(), github_fetch(coll)).collect({"per_page": 10})
    assert result.codes == ["CURSOR_EXPIRED"] and result.item_count == 10


# -- rate limits --------------------------------------------------------------------------------


def test_rate_limit_is_honoured_inside_the_deadline():
    clock = FakeClock()
    coll = FaultyCollection(30, faults=Faults(rate_limit={2: 2}))
    walker = Walker(NATIVE, native_fetch(coll), clock=clock, sleep=clock.sleep)
    result = walker.collect({"limit": 10}, Limits(deadline=10))
    assert result.complete and ids(result) == coll.alive_ids()
    assert clock.slept == [2.0]


def test_rate_limit_past_the_deadline_is_reported_with_retry_after():
    clock = FakeClock()
    coll = FaultyCollection(30, faults=Faults(rate_limit={2: 20}))
    walker = Walker(NATIVE, native_fetch(coll), clock=clock, sleep=clock.sleep)
    result = walker.collect({"limit": 10}, Limits(deadline=10))
    assert clock.slept == []
    assert not result.complete and result.codes == ["RATE_LIMITED"]
    assert result.reasons[0].retry_after_s == 20
    assert result.continuation == Continuation(kind="retry_after", seconds=20.0)
    assert result.item_count == 10


def test_adapter_rate_limit_is_honoured_too():
    clock = FakeClock()
    coll = FaultyCollection(30, snapshot="none", faults=Faults(rate_limit={1: 1}))
    walker = Walker(github_contract(), github_fetch(coll), clock=clock, sleep=clock.sleep)
    result = walker.collect({"per_page": 10})
    assert result.complete and clock.slept == [1.0]


# -- contract violations ------------------------------------------------------------------------


def test_undeclared_code_is_a_contract_violation_never_passed_as_normal():
    coll = FaultyCollection(50, faults=Faults(undeclared_code_at=2))
    result = Walker(NATIVE, native_fetch(coll)).collect({"limit": 10})
    assert not result.complete and result.item_count == 10  # the offending page is not used
    reason = result.reasons[0]
    assert (reason.code, reason.origin) == ("CONTRACT_VIOLATION", "client")
    assert "SHARD_REBALANCING" in reason.what
    assert result.continuation.kind == "none"


@pytest.mark.parametrize(
    "body, what",
    [
        ({"items": [], "incomplete_reasons": []}, "boolean 'complete'"),
        (
            {
                "items": [],
                "complete": True,
                "incomplete_reasons": [{"code": "MORE_PAGES_AVAILABLE"}],
            },
            "disagrees",
        ),
        ({"items": [], "complete": False, "incomplete_reasons": []}, "disagrees"),
        (
            {"items": [], "complete": True, "incomplete_reasons": [], "next_cursor": "x"},
            "next_cursor",
        ),
        ({"items": {}, "complete": True, "incomplete_reasons": []}, "items"),
        (["not", "an", "object"], "JSON object"),
        ({"items": [], "complete": True, "warnings": [{"code": "NOPE"}]}, "undeclared warning"),
    ],
)
def test_invalid_envelopes_are_contract_violations(body, what):
    result = Walker(NATIVE, scripted([(200, {}, body)])).collect()
    assert not result.complete
    assert result.reasons[0].code == "CONTRACT_VIOLATION" and what in result.reasons[0].what


def test_a_declared_error_body_becomes_a_reason_and_an_undeclared_status_raises():
    body = {"error": {"code": "SOURCE_UNAVAILABLE", "source": "db", "message": "down"}}
    fetch = scripted(
        [
            (200, {}, envelope(["a"], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c")),
            (503, {}, body),
        ]
    )
    result = Walker(NATIVE, fetch).collect()
    assert result.codes == ["SOURCE_UNAVAILABLE"] and result.reasons[0].source == "db"
    assert ids(result) == ["a"]
    with pytest.raises(ApiError) as err:
        Walker(NATIVE, scripted([(500, {}, {"oops": 1})])).collect()
    assert err.value.status == 500


def test_an_unmapped_error_after_a_page_is_a_partial_result_that_keeps_it():
    """issue 19: never an ApiError that drops the pages already read."""
    fetch = scripted(
        [
            (200, {}, envelope(["a"], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c")),
            (502, {}, {"error": {"code": "BAD_GATEWAY", "message": "upstream"}}),
        ]
    )
    result = Walker(NATIVE, fetch).collect()
    assert ids(result) == ["a"] and result.complete is False and result.pages == 1
    (reason,) = result.reasons
    assert (reason.code, reason.origin) == ("HTTP_ERROR", "client")
    assert reason.details == {"status": 502, "error": "BAD_GATEWAY"}
    assert result.continuation.kind == "next_cursor" and result.continuation.cursor == "c"


def test_warnings_are_kept_and_never_change_complete():
    warn = {"code": "STALE_INDEX", "source": "idx"}
    fetch = scripted([(200, {}, envelope(["a"], warnings=[warn], evidence="ev"))])
    result = Walker(NATIVE, fetch).collect()
    assert result.complete and result.warnings[0].source == "idx" and result.evidence == "ev"


# -- streaming ----------------------------------------------------------------------------------


def test_item_stream_exposes_completeness_only_at_the_end():
    coll = FaultyCollection(45)
    stream = Walker(NATIVE, native_fetch(coll)).iter_items({"limit": 10}, Limits(max_pages=2))
    with pytest.raises(ResultNotReady):
        _ = stream.result
    seen = [item["id"] for item in stream]
    assert seen == coll.alive_ids()[:20]
    assert stream.result.complete is False
    assert stream.result.codes == ["CLIENT_PAGE_LIMIT"]
    assert stream.result.item_count == 20
    assert not hasattr(stream.result, "items")  # a stream's result never pretends to hold items


def test_page_stream_yields_pages_lazily():
    coll = FaultyCollection(45)
    log = []
    stream = Walker(NATIVE, native_fetch(coll, log)).iter_pages({"limit": 10})
    first = next(stream)
    assert len(log) == 1 and first.number == 1 and not first.complete
    rest = list(stream)
    assert len(rest) == 4 and rest[-1].complete and stream.result.complete


def test_page_reads_exactly_one_page():
    coll = FaultyCollection(45)
    log = []
    page = Walker(NATIVE, native_fetch(coll, log)).page({"limit": 10})
    assert len(log) == 1 and len(page.items) == 10
    assert page.reasons[0].code == "MORE_PAGES_AVAILABLE" and page.next_cursor


def test_adapter_page_carries_the_client_computed_envelope():
    coll = FaultyCollection(45, snapshot="none")
    page = Walker(github_contract(), github_fetch(coll)).page({"per_page": 10})
    env = page.envelope
    assert env["complete"] is False and env["next_cursor"].endswith("page=2&per_page=10")
    assert [r["code"] for r in env["incomplete_reasons"]] == ["MORE_PAGES_AVAILABLE"]


def test_page_raises_with_the_reason_when_no_page_could_be_read():
    coll = FaultyCollection(45)
    with pytest.raises(WalkFailed) as err:
        Walker(NATIVE, native_fetch(coll)).page({"limit": 10}, resume="bad.cursor")
    assert err.value.result.codes == ["CURSOR_EXPIRED"]


# -- async twin ---------------------------------------------------------------------------------


def _async(fetch):
    async def afetch(req):
        return fetch(req)

    return afetch


def test_async_walker_mirrors_the_sync_one():
    coll = FaultyCollection(100)

    async def main():
        walker = AsyncWalker(NATIVE, _async(native_fetch(coll)))
        first = await walker.collect({"limit": 10}, Limits(max_pages=4))
        rest = await walker.collect({"limit": 10}, resume=first.continuation)
        stream = walker.iter_items({"limit": 30})
        with pytest.raises(ResultNotReady):
            _ = stream.result
        streamed = [item["id"] async for item in stream]
        page = await walker.page({"limit": 5})
        return first, rest, streamed, stream.result, page

    first, rest, streamed, summary, page = asyncio.run(main())
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and rest.complete
    assert ids(first) + ids(rest) == coll.alive_ids() == streamed
    assert summary.complete and summary.item_count == 100
    assert len(page.items) == 5


def test_async_rate_limit_uses_the_injected_sleep():
    clock = FakeClock()
    coll = FaultyCollection(20, faults=Faults(rate_limit={1: 3}))
    walker = AsyncWalker(NATIVE, _async(native_fetch(coll)), clock=clock, sleep=clock.asleep)
    result = asyncio.run(walker.collect({"limit": 10}, Limits(deadline=60)))
    assert result.complete and clock.slept == [3.0]


def test_the_walk_also_takes_the_runtime_contract_dataclass():
    from xcompleteness.runtime.contract import Contract

    coll = FaultyCollection(1500, snapshot="none")
    contract = Contract.from_dict(github_contract())
    result = Walker(contract, github_fetch(coll)).collect({"per_page": 100})
    assert result.codes == ["RESULT_LIMIT_REACHED"] and result.item_count == 1000
    native = Walker(Contract.from_dict(NATIVE), native_fetch(FaultyCollection(30))).collect()
    assert native.complete and native.item_count == 30


def test_offset_adapter_reports_a_changed_total_instead_of_skipping():
    fetch = scripted(
        [
            (200, {}, {"count": 4, "results": [{"id": 1}, {"id": 2}]}),
            (200, {}, {"count": 3, "results": [{"id": 4}]}),  # one row was deleted meanwhile
        ]
    )
    result = Walker(_offset_contract("offset"), fetch).collect({"limit": 2})
    assert not result.complete and result.codes == ["SNAPSHOT_CHANGED"]
    assert [i["id"] for i in result.items] == [1, 2]
    assert result.continuation.kind == "restart"


def test_the_declared_deadline_parameter_is_sent_when_the_caller_sets_a_deadline():
    from xcompleteness.runtime.operations import BaseClient, Listing

    seen = []

    def handler(request):
        seen.append(dict(request.url.params))
        return httpx.Response(200, json=envelope(["a"]))

    contract = native_contract()
    contract["deadline"] = {"param": "time_budget_ms", "unit": "ms", "default": 2000, "max": 30000}
    client = BaseClient("http://api.test", transport=httpx.MockTransport(handler))
    listing = Listing(client, contract, parameters=[("limit", "limit", "query")])
    result = listing._collect(listing._prepare({"limit": 5}, None, {}, 2.5), Limits(), None)
    assert result.complete and seen[0] == {"limit": "5", "time_budget_ms": "2500"}
    listing._collect(listing._prepare({}, None, {}, 600), Limits(), None)
    assert seen[1]["time_budget_ms"] == "30000"  # capped at the declared max


def test_each_page_gets_the_remaining_deadline_as_its_server_budget():
    from xcompleteness.runtime.operations import BaseClient, Listing

    budgets = []
    pages = iter(
        [
            envelope(["a"], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c2"),
            envelope(["b"], reasons=["MORE_PAGES_AVAILABLE"], next_cursor="c3"),
            envelope(["c"]),
        ]
    )

    def handler(request):
        budgets.append(int(request.url.params["time_budget_ms"]))
        time.sleep(0.02)
        return httpx.Response(200, json=next(pages))

    contract = native_contract()
    contract["deadline"] = {"param": "time_budget_ms", "unit": "ms", "default": 2000, "max": 30000}
    client = BaseClient("http://api.test", transport=httpx.MockTransport(handler))
    listing = Listing(client, contract, parameters=[("limit", "limit", "query")])
    result = listing._collect(listing._prepare({}, None, {}, 5.0), Limits(deadline=5.0), None)
    assert result.complete and len(budgets) == 3
    assert budgets[0] <= 5000 and budgets[0] > budgets[1] > budgets[2] > 4000


def test_integer_and_nested_ids_that_repeat_are_named_as_text():
    """issue 19: duplicate ids of any JSON type are found and named (as their JSON text)."""
    contract = {
        "mode": "adapter",
        "items": "$response.body#/v",
        "id": "/key/n",
        "pagination": {
            "style": "offset",
            "request": {"offset": "o", "size": "s"},
            "response": {"last": "$response.body#/last"},
        },
        "reasons": [{"code": "MORE_PAGES_AVAILABLE"}],
    }
    rows = [{"key": {"n": n}} for n in (1, 2, 2, 3, 1, 1)]
    fetch = scripted(
        [
            (200, {}, {"v": rows[:3], "last": False}),
            (200, {}, {"v": rows[3:], "last": True}),
        ]
    )
    result = Walker(contract, fetch).collect()
    assert result.complete and len(result.items) == 6
    (warning,) = result.warnings
    assert warning.code == "ITEMS_SEEN_TWICE"
    assert warning.details == {"ids": ["2", "1"], "count": 3}


@pytest.mark.parametrize(
    ("pages", "what"),
    [
        ([{"v": [{"id": "a"}], "last": "no"}], "not a boolean"),
        ([{"v": [{"id": "a"}], "last": False}, {"v": [], "last": False}], "says more follow"),
    ],
)
def test_a_last_page_field_that_lies_is_a_contract_violation(pages, what):
    contract = {
        "mode": "adapter",
        "items": "$response.body#/v",
        "pagination": {
            "style": "page",
            "request": {"page": "p"},
            "response": {"last": "$response.body#/last"},
        },
        "reasons": [{"code": "MORE_PAGES_AVAILABLE"}],
    }
    result = Walker(contract, scripted([(200, {}, body) for body in pages])).collect()
    assert result.codes == ["CONTRACT_VIOLATION"]
    assert what in result.reason("CONTRACT_VIOLATION").details["what"]
