"""An unpaged search capped by a size carried in its JSON request body: a full answer is not
complete.

``POST /events/search {"kind": K, "limit": N}`` (tests/client/specs/size_cap_body.yaml) is
declared ``pagination: {style: none, request: {size: $request.body#/limit}, max-page-size: 5}``:
the walk writes the size into the body itself (the caller's, at most 5; else 5, never the
server's unseen default of 2), keeps the caller's other body fields, and reads a full answer as
``RESULT_LIMIT_REACHED``. One real uvicorn server on loopback answers; the generated package
walks it with the sync client, the async client, and its MCP tool through the official ``mcp``
SDK client. The query-parameter twin is tests/client/test_size_cap.py.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.walks import WALKS, call_tools, listed_tool

SPEC = Path(__file__).parent / "specs" / "size_cap_body.yaml"
PACKAGE = "client_area_size_cap_body"
EVENTS = {
    "many": [{"id": f"m{i}", "kind": "many"} for i in range(9)],
    "few": [{"id": f"f{i}", "kind": "few"} for i in range(3)],
}
SERVER_DEFAULT, SERVER_MAX = 2, 5


class Fake:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bodies: list[Any] = []  # every request body, as sent
        self.queries: list[str] = []  # every query string, as sent


def make_app(fake: Fake) -> FastAPI:
    app = FastAPI()

    @app.post("/events/search")
    async def search(request: Request) -> JSONResponse:
        body = await request.json()
        with fake.lock:
            fake.bodies.append(body)
            fake.queries.append(request.url.query)
        if not isinstance(body, dict) or not isinstance(body.get("kind"), str):
            return JSONResponse({"error": "kind is required"}, status_code=400)
        raw = body.get("limit")
        size = min(raw if isinstance(raw, int) else SERVER_DEFAULT, SERVER_MAX)
        return JSONResponse({"events": EVENTS.get(body["kind"], [])[:size]})

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate_and_import(SPEC, tmp_path_factory.mktemp("size_cap_body"), PACKAGE)


@pytest.fixture(scope="module")
def api() -> Any:
    fake = Fake()
    with serve(make_app(fake)) as base:
        yield base, fake


def _walk(walk: str, pkg: Any, api: Any, **params: Any) -> tuple[Any, list[Any], list[str]]:
    base, fake = api
    with fake.lock:
        fake.bodies.clear()
        fake.queries.clear()
    result = WALKS[walk](pkg, base, "search_events", **params)
    return result, list(fake.bodies), list(fake.queries)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_full_answer_is_partial_with_result_limit_reached(walk: str, pkg: Any, api: Any) -> None:
    result, bodies, queries = _walk(walk, pkg, api, kind="many")
    # one request; the walk wrote the cap into the body itself, not the server's default of 2,
    # beside the caller's own field, and nothing into the query
    assert bodies == [{"kind": "many", "limit": 5}] and queries == [""]
    assert [e.id for e in result.items] == [f"m{i}" for i in range(5)]
    assert result.complete is False
    assert [(r.code, r.origin, r.limit) for r in result.reasons] == [
        ("RESULT_LIMIT_REACHED", "server", 5)
    ]
    assert result.continuation.kind == "narrow_query"
    assert result.pages == 1


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_short_answer_is_complete(walk: str, pkg: Any, api: Any) -> None:
    result, bodies, _ = _walk(walk, pkg, api, kind="few")
    assert bodies == [{"kind": "few", "limit": 5}]
    assert [e.id for e in result.items] == ["f0", "f1", "f2"]
    assert result.complete is True
    assert result.reasons == ()
    assert result.continuation is None


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_callers_body_size_is_the_cap_up_to_max_page_size(
    walk: str, pkg: Any, api: Any
) -> None:
    # three events, three asked for: as many as asked, so more may exist
    result, bodies, _ = _walk(walk, pkg, api, kind="few", limit=3)
    assert bodies == [{"kind": "few", "limit": 3}]
    assert not result.complete
    assert [(r.code, r.limit) for r in result.reasons] == [("RESULT_LIMIT_REACHED", 3)]
    # a size above the cap is written as the cap; three events of five asked for are all
    result, bodies, _ = _walk(walk, pkg, api, kind="few", limit=50)
    assert bodies == [{"kind": "few", "limit": 5}]
    assert result.complete is True and len(result.items) == 3


def test_the_mcp_tool_offers_the_body_size_with_its_cap_and_reads_a_full_answer_partial(
    pkg: Any, api: Any
) -> None:
    base, fake = api
    tool = listed_tool(PACKAGE, base, "search_events")
    limit = tool.input_schema["properties"]["limit"]
    assert limit["maximum"] == 5 and limit["minimum"] == 1
    assert "RESULT_LIMIT_REACHED" in limit["description"]
    assert "at most 5 items" in tool.description

    with fake.lock:
        fake.bodies.clear()
    full, short, asked = call_tools(
        PACKAGE,
        base,
        [
            ("search_events", {"kind": "many"}),
            ("search_events", {"kind": "few"}),
            ("search_events", {"kind": "few", "limit": 3}),
        ],
    )
    assert fake.bodies == [
        {"kind": "many", "limit": 5},
        {"kind": "few", "limit": 5},
        {"kind": "few", "limit": 3},
    ]
    assert full["status"] == "partial"
    assert full["completeness"]["complete"] is False
    assert [(r["code"], r["origin"], r["details"]) for r in full["completeness"]["reasons"]] == [
        ("RESULT_LIMIT_REACHED", "server", {"limit": 5})
    ]
    assert full["completeness"]["continuation"]["kind"] == "narrow_query"
    assert len(full["data"]["events"]) == 5
    assert short["status"] == "complete" and short["completeness"]["complete"] is True
    assert len(short["data"]["events"]) == 3
    assert asked["status"] == "partial"
    assert asked["completeness"]["reasons"][0]["details"] == {"limit": 3}
