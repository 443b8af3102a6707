"""A walk with a declared cap stops at it and never asks for the page the API refuses.

Postmark's outbound search serves ``count + offset <= 10,000`` and answers 422 past it, while
``TotalCount`` counts every match (12,000 here). The listing declares the cap
(``{code: RESULT_LIMIT_REACHED, limit: 10000, when: {gt: [TotalCount, 10000]}}``). The walk
asked for offset 10,000 anyway: the API refused it, and the result carried ``HTTP_ERROR`` beside
the cap with a ``next_cursor`` continuation that retries a page that always fails. Now the walk
ends at the cap with the declared reason (origin server, continuation ``narrow_query``), and a
last page that would reach past the cap asks only for the items up to it.

One real uvicorn server on loopback plays the API and counts the requests it is sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import WALKS, call_tools

SPEC = Path(__file__).parent / "specs" / "capped_search.yaml"
PACKAGE = "client_area_declared_cap"
CAP = 10_000


def make_app(seen: list[tuple[int, int]], total: int) -> FastAPI:
    app = FastAPI()

    @app.get("/messages/outbound")
    def search(count: int, offset: int):
        seen.append((offset, count))
        if count > 500 or offset + count > CAP:
            message = "Count + Offset must be at most 10000."
            return JSONResponse({"ErrorCode": 300, "Message": message}, 422)
        stop = min(offset + count, total)
        messages = [
            {"MessageID": 1 + i, "Amount": 5, "Recipient": "a@b"} for i in range(offset, stop)
        ]
        return {"TotalCount": total, "Messages": messages}

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("declared_cap"), PACKAGE)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_walk_stops_at_the_declared_cap_without_asking_past_it(pkg, walk):
    seen: list[tuple[int, int]] = []
    with serve(make_app(seen, 12_000)) as base:
        result = WALKS[walk](pkg, base, "search_outbound_messages", max_pages=40)
    assert len(result.items) == CAP
    assert [(r.code, r.origin) for r in result.reasons] == [("RESULT_LIMIT_REACHED", "server")]
    assert result.reasons[0].details["limit"] == CAP
    assert result.continuation.kind == "narrow_query"
    assert seen == [(offset, 500) for offset in range(0, CAP, 500)]  # 20 requests, none refused


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_page_that_would_reach_past_the_cap_asks_only_up_to_it(pkg, walk):
    seen: list[tuple[int, int]] = []
    with serve(make_app(seen, 12_000)) as base:
        result = WALKS[walk](pkg, base, "search_outbound_messages", max_pages=40, count=300)
    assert len(result.items) == CAP and result.codes == ["RESULT_LIMIT_REACHED"]
    assert seen[-1] == (9_900, 100)
    assert all(offset + count <= CAP for offset, count in seen) and len(seen) == 34
    ids = [m.MessageID for m in result.items]
    assert ids == list(range(1, CAP + 1))


def test_a_listing_of_exactly_the_cap_is_complete(pkg):
    seen: list[tuple[int, int]] = []
    with serve(make_app(seen, CAP)) as base:
        result = WALKS["sync"](pkg, base, "search_outbound_messages", max_pages=40)
    assert result.complete and len(result.items) == CAP
    assert len(seen) == 20


def test_a_resumed_walk_ends_at_the_cap_and_one_resumed_at_it_sends_nothing(pkg):
    """A client limit one page short of the cap, resumed: one page, then the cap. A
    continuation at the cap itself (what the walk handed out with its HTTP_ERROR before): the
    resumed walk has nothing the API would serve, so it sends nothing and says why."""
    import importlib

    seen: list[tuple[int, int]] = []
    continuations = importlib.import_module(f"{PACKAGE}._runtime.walk_continuations")
    at_cap = continuations.encode_continuation(
        {"o": "searchOutboundMessages", "s": "offset", "c": "10000", "n": CAP, "t": 12_000}
    )
    with serve(make_app(seen, 12_000)) as base:
        first = WALKS["sync"](pkg, base, "search_outbound_messages", max_pages=19)
        assert first.codes == ["RESULT_LIMIT_REACHED", "CLIENT_PAGE_LIMIT"]
        second = WALKS["sync"](
            pkg, base, "search_outbound_messages", continuation=first.continuation
        )
        assert len(seen) == 20
        third = WALKS["sync"](pkg, base, "search_outbound_messages", continuation=at_cap)
    assert len(second.items) == 500 and second.codes == ["RESULT_LIMIT_REACHED"]
    assert second.continuation.kind == "narrow_query"
    assert third.items == [] and third.codes == ["RESULT_LIMIT_REACHED"]
    assert third.continuation.kind == "narrow_query"
    assert len(seen) == 20  # the resume at the cap sent no request


def test_the_mcp_tool_reports_the_cap_and_no_http_error(pkg):
    seen: list[tuple[int, int]] = []
    with serve(make_app(seen, 12_000)) as base:
        (answer,) = call_tools(
            PACKAGE,
            base,
            [("search_outbound_messages", {"max_pages": 40})],
            max_answer_bytes=None,  # the whole capped listing in one answer
        )
    completeness = answer["completeness"]
    assert answer["status"] == "partial"
    codes = [(r["code"], r["origin"]) for r in completeness["reasons"]]
    assert codes == [("RESULT_LIMIT_REACHED", "server")]
    assert len(answer["data"]["messages"]) == CAP
    assert completeness["continuation"] == {"kind": "narrow_query"}
    assert all(offset + count <= CAP for offset, count in seen)
