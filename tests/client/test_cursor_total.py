"""A total beside a cursor or a ``Link`` header (GitHub search's ``total_count``, cursor APIs'
``total_count``), and a total the API pages fewer items of than it counts.

``style: cursor`` and ``style: link-header`` take ``response.total`` as next-url does: the next
cursor or link still decides whether more pages follow; the total is evidence. A walk the API
ends with another item count is CONTRACT_VIOLATION (``total_mismatch``), unless the listing
declares a cap (``RESULT_LIMIT_REACHED`` with ``limit``) the walk ended at while the total counts
more (the declared RESULT_LIMIT_REACHED, ``narrow_query``: GitHub search's 1,000, eBay's and
Postmark's 10,000). A total that changes between pages is SNAPSHOT_CHANGED; one that is not a
number is CONTRACT_VIOLATION. Generated client against a real uvicorn
server on loopback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from xcompleteness.check._pipeline import check_spec

SPEC = Path(__file__).parent / "specs" / "cursor_total.yaml"
PACKAGE = "client_area_cursor_total"
THINGS = [{"id": f"t{i:02d}", "name": f"thing {i}"} for i in range(10)]
CAP = 6  # what the search serves of any query (its declared RESULT_LIMIT_REACHED limit)


def _served(mode: str) -> tuple[list[dict[str, Any]], Any]:
    """The rows the API pages through and the total it reports, per mode."""
    total: Any = len(THINGS)
    rows = THINGS
    if mode == "capped":
        rows = THINGS[:CAP]  # counts 10, serves 6 (a search result cap)
    elif mode == "short":
        rows = THINGS[:-1]  # one thing never served, nothing says why
    elif mode == "early":
        rows = THINGS[:3]  # ends well before the declared cap
    elif mode == "text":
        total = "ten"
    return rows, total


def make_app(state: dict[str, Any]) -> FastAPI:
    app = FastAPI()

    def search(request: Request) -> JSONResponse:
        mode = state.get("mode", "clean")
        page = int(request.query_params.get("page") or 1)
        size = int(request.query_params.get("per_page") or 3)
        rows, total = _served(mode)
        if mode == "drift" and page > 1:
            total += 1
        start = (page - 1) * size
        body = {"total_count": total, "incomplete_results": False}
        body["items"] = rows[start : start + size]
        url = str(request.url).split("?")[0]
        links = []
        if start + size < len(rows):
            links.append(f'<{url}?per_page={size}&page={page + 1}>; rel="next"')
        if page > 1:
            links.append(f'<{url}?per_page={size}&page={page - 1}>; rel="prev"')
        headers = {"Link": ", ".join(links)} if links else {}
        return JSONResponse(body, headers=headers)

    app.get("/search/things")(search)
    app.get("/search/plain")(search)

    @app.get("/things")
    async def things(request: Request) -> JSONResponse:
        mode = state.get("mode", "clean")
        start = int((request.query_params.get("after") or "c0")[1:])
        size = int(request.query_params.get("limit") or 3)
        rows, total = _served(mode)
        if mode == "drift" and start > 0:
            total += 1
        nxt = f"c{start + size}" if start + size < len(rows) else None
        return JSONResponse(
            {"data": rows[start : start + size], "next_cursor": nxt, "total_count": total}
        )

    return app


@pytest.fixture(scope="module")
def client_mod(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("cursor_total_gen"), PACKAGE).client


@pytest.fixture(scope="module")
def server():
    state: dict[str, Any] = {}
    with serve(make_app(state)) as base:
        yield base, state


def _walk(client_mod, server, op: str, mode: str, **kwargs: Any):
    base, state = server
    state["mode"] = mode
    with client_mod.Client(base) as client:
        return getattr(client, op).collect(**kwargs)


def test_the_declarations_check_clean() -> None:
    result = check_spec(SPEC)
    assert [d.render() for d in result.diagnostics] == []
    for op in ("searchThings", "listThings"):
        pagination = result.contracts[op].to_dict()["pagination"]
        assert pagination["response"]["total"] == "$response.body#/total_count"


@pytest.mark.parametrize("op", ["search_plain", "list_things"])
def test_a_walk_that_reads_the_total_is_complete(client_mod, server, op: str) -> None:
    result = _walk(client_mod, server, op, "clean")
    assert result.complete and result.pages == 4
    assert [t.id for t in result.items] == [t["id"] for t in THINGS]


def test_a_walk_never_asks_past_its_declared_cap(client_mod, server) -> None:
    """search_things declares that the API serves 6 (``limit: 6``): when the fake offers a next
    link past them anyway, the walk stops at the cap with the declared reason and never sends
    the request (tests/client/test_declared_cap.py)."""
    result = _walk(client_mod, server, "search_things", "clean")
    assert [r.code for r in result.reasons] == ["RESULT_LIMIT_REACHED"]
    assert result.pages == 2 and result.continuation.kind == "narrow_query"
    assert [t.id for t in result.items] == [t["id"] for t in THINGS[:CAP]]


def test_a_cursor_walk_the_api_ends_short_of_its_total_is_partial(client_mod, server) -> None:
    result = _walk(client_mod, server, "list_things", "short")
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    assert result.reasons[0].origin == "client"
    assert result.reasons[0].details["what"] == (
        "the walk ended (no next cursor) after 9 items, but the declared total is 10: "
        "items are missing"
    )
    assert result.continuation is not None and result.continuation.kind == "none"
    assert len(result.items) == 9  # every item read is kept


def test_the_stream_names_the_rule(client_mod, server) -> None:
    base, state = server
    state["mode"] = "short"
    with client_mod.Client(base) as client:
        stream = client.list_things.iter_pages()
        pages = list(stream)
    assert len(pages) == 3 and not pages[-1].complete
    assert stream.violation == "total_mismatch"


def test_an_undeclared_cap_is_reported_loudly(client_mod, server) -> None:
    """GitHub-search-like: the API counts 10 and serves 6; nothing declares the cap."""
    result = _walk(client_mod, server, "search_plain", "capped")
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    assert result.reasons[0].details["what"] == (
        "the walk ended (no next link) after 6 items, but the declared total is 10: "
        "items are missing"
    )
    assert len(result.items) == 6


@pytest.mark.parametrize("per_page", [3, 4])
def test_a_walk_ended_at_its_declared_cap_is_result_limit_reached(
    client_mod, server, per_page: int
) -> None:
    """The declared cap (limit 6) explains the shortfall: the total counts more than the cap and
    the walk ended at it (per_page 4: the API's last page holds the 2 items left under it)."""
    result = _walk(client_mod, server, "search_things", "capped", per_page=per_page)
    assert [r.code for r in result.reasons] == ["RESULT_LIMIT_REACHED"]
    reason = result.reasons[0]
    assert reason.origin == "server" and reason.details["limit"] == CAP
    assert result.continuation is not None and result.continuation.kind == "narrow_query"
    assert [t.id for t in result.items] == [t["id"] for t in THINGS[:CAP]]


def test_a_walk_ended_short_of_its_declared_cap_is_still_a_violation(client_mod, server) -> None:
    result = _walk(client_mod, server, "search_things", "early")
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    what = result.reasons[0].details["what"]
    assert "after 3 items, but the declared total is 10" in what
    assert "the declared cap of 6 does not explain it" in what


@pytest.mark.parametrize("op", ["search_things", "list_things"])
def test_a_total_that_changes_between_pages_restarts(client_mod, server, op: str) -> None:
    result = _walk(client_mod, server, op, "drift")
    assert [r.code for r in result.reasons] == ["SNAPSHOT_CHANGED"]
    assert result.continuation is not None and result.continuation.kind == "restart"


@pytest.mark.parametrize("op", ["search_things", "list_things"])
def test_a_total_that_is_not_a_number_is_a_violation(client_mod, server, op: str) -> None:
    result = _walk(client_mod, server, op, "text")
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    assert 'total is missing or not a number ("ten")' in result.reasons[0].details["what"]


def test_a_resumed_cursor_walk_still_compares_with_the_total(client_mod, server) -> None:
    first = _walk(client_mod, server, "list_things", "short", max_pages=1)
    assert [r.code for r in first.reasons] == ["CLIENT_PAGE_LIMIT"]
    token = first.continuation.cursor
    assert token.startswith("xc1.")  # the count travels with the cursor
    rest = _walk(client_mod, server, "list_things", "short", continuation=token)
    assert [r.code for r in rest.reasons] == ["CONTRACT_VIOLATION"]
    assert "after 9 items" in rest.reasons[0].details["what"]
    clean = _walk(client_mod, server, "list_things", "clean", max_pages=2)
    again = _walk(
        client_mod, server, "list_things", "clean", continuation=clean.continuation.cursor
    )
    assert again.complete and len(again.items) == 4


def test_a_resumed_link_walk_still_compares_with_the_total(client_mod, server) -> None:
    first = _walk(client_mod, server, "search_plain", "capped", max_pages=1)
    token = first.continuation.cursor
    assert token.startswith("xc1.")
    rest = _walk(client_mod, server, "search_plain", "capped", continuation=token)
    assert "after 6 items" in rest.reasons[0].details["what"]


@pytest.mark.parametrize("how", ["continuation", "parameter"])
def test_a_bare_cursor_resumes_without_a_false_shortfall(client_mod, server, how: str) -> None:
    """A cursor handed in by itself says nothing of the items before it: not compared."""
    kwargs: dict[str, Any] = {"continuation": "c3"} if how == "continuation" else {"after": "c3"}
    result = _walk(client_mod, server, "list_things", "clean", **kwargs)
    assert result.complete and len(result.items) == 7


def test_a_link_walk_started_past_the_first_page_does_not_compare(client_mod, server) -> None:
    """The caller's own page=2: the first page read links to a previous one (rel=prev), so the
    items before it are unknown; without that the walk would read 7 of 10 as items missing."""
    result = _walk(client_mod, server, "search_plain", "clean", page=2)
    assert result.complete and len(result.items) == 7
