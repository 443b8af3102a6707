"""A total beside a next URL (App Store Connect's ``meta.paging.total`` beside ``links.next``).

``style: next-url`` takes ``response.total``: the next URL still decides whether more pages
follow; the total is evidence of completeness. A walk the API ends (no next URL) with another
number of items than the total counts is partial (CONTRACT_VIOLATION, continuation ``none``,
every item read kept); a total that changes between pages means the collection moved under the
walk (SNAPSHOT_CHANGED, ``restart``). A walk stopped by a client limit hands out a continuation
that carries the count, so the resumed walk still compares. Generated client against a real
uvicorn server on loopback.
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

SPEC = Path(__file__).parent / "specs" / "next_url_total.yaml"
PACKAGE = "client_area_next_url_total"
BUILDS = [{"id": f"b{i:02d}", "version": f"1.{i}"} for i in range(8)]


def make_app(state: dict[str, Any]) -> FastAPI:
    app = FastAPI()

    @app.get("/v1/builds")
    async def builds(request: Request) -> JSONResponse:
        mode = state.get("mode", "clean")
        start = int(request.query_params.get("cursor") or 0)
        limit = int(request.query_params.get("limit") or 3)
        rows = BUILDS[:-1] if mode == "short" else BUILDS  # short: one build never served
        total = len(BUILDS)
        if mode == "drift" and start > 0:
            total += 1  # a build was added after the first page
        page = rows[start : start + limit]
        body: dict[str, Any] = {"data": page, "links": {"self": str(request.url)}}
        if not (mode == "first-only" and start > 0):
            body["meta"] = {"paging": {"total": total, "limit": limit}}
        if mode == "text-total":
            body["meta"]["paging"]["total"] = "eight"
        if start + limit < len(rows):
            base = str(request.base_url).rstrip("/")
            body["links"]["next"] = f"{base}/v1/builds?limit={limit}&cursor={start + limit}"
        return JSONResponse(body)

    return app


@pytest.fixture(scope="module")
def client_mod(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("next_url_total_gen"), PACKAGE).client


@pytest.fixture(scope="module")
def server():
    state: dict[str, Any] = {}
    with serve(make_app(state)) as base:
        yield base, state


def _walk(client_mod, server, mode: str, **kwargs: Any):
    base, state = server
    state["mode"] = mode
    with client_mod.Client(base) as client:
        return client.builds_get_collection.collect(limit=3, **kwargs)


def test_the_declaration_checks_clean() -> None:
    result = check_spec(SPEC)
    assert [d.render() for d in result.diagnostics] == []
    pagination = result.contracts["builds_getCollection"].to_dict()["pagination"]
    assert pagination["response"]["total"] == "$response.body#/meta/paging/total"


def test_a_walk_that_reads_the_total_is_complete(client_mod, server) -> None:
    result = _walk(client_mod, server, "clean")
    assert result.complete and result.pages == 3
    assert [b.id for b in result.items] == [b["id"] for b in BUILDS]


def test_a_walk_the_api_ends_short_of_its_total_is_partial(client_mod, server) -> None:
    result = _walk(client_mod, server, "short")
    assert not result.complete
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    reason = result.reasons[0]
    assert reason.origin == "client"
    assert reason.details["what"] == (
        "the walk ended (no next URL) after 7 items, but the declared total is 8: items are missing"
    )
    assert result.continuation is not None and result.continuation.kind == "none"
    assert len(result.items) == 7  # every item read is kept, the last page's included


def test_the_stream_names_the_rule(client_mod, server) -> None:
    base, state = server
    state["mode"] = "short"
    with client_mod.Client(base) as client:
        stream = client.builds_get_collection.iter_pages(limit=3)
        pages = list(stream)
    assert len(pages) == 3 and not pages[-1].complete
    assert stream.violation == "total_mismatch"


def test_a_total_that_changes_between_pages_restarts(client_mod, server) -> None:
    result = _walk(client_mod, server, "drift")
    assert [r.code for r in result.reasons] == ["SNAPSHOT_CHANGED"]
    assert result.continuation is not None and result.continuation.kind == "restart"


def test_a_total_only_on_the_first_page_is_kept(client_mod, server) -> None:
    assert _walk(client_mod, server, "first-only").complete


def test_a_total_that_is_not_a_number_is_a_violation(client_mod, server) -> None:
    result = _walk(client_mod, server, "text-total")
    assert [r.code for r in result.reasons] == ["CONTRACT_VIOLATION"]
    assert "total is missing or not a number" in result.reasons[0].details["what"]


def test_a_resumed_walk_still_compares_with_the_total(client_mod, server) -> None:
    first = _walk(client_mod, server, "short", max_pages=1)
    assert [r.code for r in first.reasons] == ["CLIENT_PAGE_LIMIT"]
    token = first.continuation.cursor
    assert token.startswith("xc1.")  # the count travels with the next URL
    rest = _walk(client_mod, server, "short", continuation=token)
    assert [r.code for r in rest.reasons] == ["CONTRACT_VIOLATION"]
    assert "after 7 items" in rest.reasons[0].details["what"]
    clean = _walk(client_mod, server, "clean", max_pages=1)
    assert _walk(client_mod, server, "clean", continuation=clean.continuation.cursor).complete


def test_a_bare_next_url_resumes_without_a_false_shortfall(client_mod, server) -> None:
    """A next URL handed in by itself says nothing of the items before it: not compared."""
    base, _ = server
    url = f"{base}/v1/builds?limit=3&cursor=3"
    result = _walk(client_mod, server, "clean", continuation=url)
    assert result.complete and len(result.items) == 5
