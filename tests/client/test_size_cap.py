"""An unpaged listing capped by its size parameter: a full answer is not complete.

Many APIs list without paging but take a size (``GET /recent?limit=50``): an answer holding as
many items as were asked for may hide more, and no page can be asked for. Declared
``pagination: {style: none, request: {size: limit}, max-page-size: 5}`` (tests/client/specs/
size_cap.yaml), the walk sends the size itself (the caller's, at most 5; else 5, never the
server's unseen default of 2) and reads a full answer as ``RESULT_LIMIT_REACHED`` (``limit``:
the size sent, continuation ``narrow_query``). One real uvicorn server on loopback answers; the
package ``generate`` writes walks it with the sync client, the async client, and its MCP tool
through the official ``mcp`` SDK client.
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

SPEC = Path(__file__).parent / "specs" / "size_cap.yaml"
PACKAGE = "client_area_size_cap"
EVENTS = {
    "many": [{"id": f"m{i}", "kind": "many"} for i in range(9)],
    "few": [{"id": f"f{i}", "kind": "few"} for i in range(3)],
}
SERVER_DEFAULT, SERVER_MAX = 2, 5


class Fake:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[str | None] = []  # the limit of every request, as sent


def make_app(fake: Fake) -> FastAPI:
    app = FastAPI()

    @app.get("/recent")
    def recent(request: Request) -> JSONResponse:
        raw = request.query_params.get("limit")
        with fake.lock:
            fake.sent.append(raw)
        size = min(int(raw) if raw is not None else SERVER_DEFAULT, SERVER_MAX)
        events = EVENTS.get(request.query_params.get("kind") or "", [])
        return JSONResponse({"events": events[:size]})

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate_and_import(SPEC, tmp_path_factory.mktemp("size_cap"), PACKAGE)


@pytest.fixture(scope="module")
def api() -> Any:
    fake = Fake()
    with serve(make_app(fake)) as base:
        yield base, fake


def _walk(walk: str, pkg: Any, api: Any, **params: Any) -> tuple[Any, list[str | None]]:
    base, fake = api
    with fake.lock:
        fake.sent.clear()
    result = WALKS[walk](pkg, base, "list_recent_events", **params)
    return result, list(fake.sent)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_full_answer_is_partial_with_result_limit_reached(walk: str, pkg: Any, api: Any) -> None:
    result, sent = _walk(walk, pkg, api, kind="many")
    assert sent == ["5"]  # the walk sent the cap itself, not the server's default of 2
    assert [e.id for e in result.items] == [f"m{i}" for i in range(5)]
    assert result.complete is False
    assert [(r.code, r.origin, r.limit) for r in result.reasons] == [
        ("RESULT_LIMIT_REACHED", "server", 5)
    ]
    assert result.continuation.kind == "narrow_query"
    assert result.pages == 1


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_short_answer_is_complete(walk: str, pkg: Any, api: Any) -> None:
    result, sent = _walk(walk, pkg, api, kind="few")
    assert sent == ["5"]
    assert [e.id for e in result.items] == ["f0", "f1", "f2"]
    assert result.complete is True
    assert result.reasons == ()
    assert result.continuation is None


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_callers_size_is_the_cap_up_to_max_page_size(walk: str, pkg: Any, api: Any) -> None:
    # three events, three asked for: as many as asked, so more may exist
    result, sent = _walk(walk, pkg, api, kind="few", limit=3)
    assert sent == ["3"]
    assert not result.complete
    assert [(r.code, r.limit) for r in result.reasons] == [("RESULT_LIMIT_REACHED", 3)]
    # a size above the cap is sent as the cap; three events of five asked for are all of them
    result, sent = _walk(walk, pkg, api, kind="few", limit=50)
    assert sent == ["5"]
    assert result.complete is True and len(result.items) == 3


def test_the_mcp_tool_offers_the_size_with_its_cap_and_reads_a_full_answer_partial(
    pkg: Any, api: Any
) -> None:
    base, _ = api
    tool = listed_tool(PACKAGE, base, "list_recent_events")
    limit = tool.input_schema["properties"]["limit"]
    assert limit["maximum"] == 5 and limit["minimum"] == 1
    assert "RESULT_LIMIT_REACHED" in limit["description"]
    assert "at most 5 items" in tool.description

    full, short, asked = call_tools(
        PACKAGE,
        base,
        [
            ("list_recent_events", {"kind": "many"}),
            ("list_recent_events", {"kind": "few"}),
            ("list_recent_events", {"kind": "few", "limit": 3}),
        ],
    )
    assert full["status"] == "partial"
    assert full["completeness"]["complete"] is False
    assert [(r["code"], r["origin"], r["details"]) for r in full["completeness"]["reasons"]] == [
        ("RESULT_LIMIT_REACHED", "server", {"limit": 5})
    ]
    assert full["completeness"]["continuation"]["kind"] == "narrow_query"
    assert len(full["data"]["events"]) == 5
    assert full["evidence"] is None
    assert short["status"] == "complete" and short["completeness"]["complete"] is True
    assert len(short["data"]["events"]) == 3
    assert asked["status"] == "partial"
    assert asked["completeness"]["reasons"][0]["details"] == {"limit": 3}
