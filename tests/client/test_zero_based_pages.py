"""Pages numbered from 0 (``pagination.first-page: 0``), walked end to end over loopback.

tests/client/specs/zero_pages.yaml declares a Spring-shaped listing (``?page=0&size=3``,
``totalPages``) and one whose only end is an empty page. A real uvicorn server answers page 0
with the first items, as such APIs do; a walk that started at page 1 would skip them and still
end ``complete: true`` (the failure ``first-page`` exists to prevent). The generated client
(sync and async) and its MCP tool (official ``mcp`` SDK client) walk both from page 0, resume a
walk from its continuation, and ``xcompleteness mock`` serves the same 0-based listings.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from support.fault_server import serve
from support.gen import generate_and_import
from support.mock_proc import mock_server
from support.walks import WALKS, call_tools, collect_sync

SPEC = Path(__file__).parent / "specs" / "zero_pages.yaml"
PACKAGE = "client_area_zero_pages"
ORDERS = [{"id": f"o{i}", "status": "open" if i % 3 else "shipped"} for i in range(10)]
OPEN = [o for o in ORDERS if o["status"] == "open"]  # 6 orders: pages 0 and 1 of 3
LOGS = [{"id": f"l{i}", "status": "info"} for i in range(5)]
LOG_PAGE = 2


class Fake:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pages: list[tuple[str, int]] = []

    def note(self, path: str, page: int) -> None:
        with self.lock:
            self.pages.append((path, page))


def make_app(fake: Fake) -> FastAPI:
    app = FastAPI()

    @app.get("/orders")
    def orders(request: Request) -> JSONResponse:
        q = request.query_params
        page, size = int(q.get("page") or 0), min(int(q.get("size") or 3), 3)
        fake.note("/orders", page)
        rows = [o for o in ORDERS if q.get("status") in (None, o["status"])]
        total = -(-len(rows) // size)
        body = {"content": rows[page * size : (page + 1) * size], "totalPages": total}
        return JSONResponse({**body, "number": page})

    @app.get("/logs")
    def logs(request: Request) -> JSONResponse:
        page = int(request.query_params.get("page") or 0)
        fake.note("/logs", page)
        return JSONResponse(LOGS[page * LOG_PAGE : (page + 1) * LOG_PAGE])

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("zero_pages_gen"), PACKAGE)


@pytest.fixture(scope="module")
def api():
    fake = Fake()
    with serve(make_app(fake)) as base:
        yield base, fake


def _tool(pkg, base: str, name: str, **args: Any) -> dict[str, Any]:
    """One tools/call through the generated MCP server, by the official SDK client."""
    [result] = call_tools(PACKAGE, base, [(name, args)], secret=b"z" * 32)
    return result


def _ids(rows: list[Any]) -> list[str]:
    return [r["id"] if isinstance(r, dict) else r.id for r in rows]


def _asked(fake: Fake, path: str) -> list[int]:
    return [page for p, page in fake.pages if p == path]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_zero_based_page_walk_starts_at_page_0(pkg, api, walk):
    base, fake = api
    fake.pages.clear()
    result = WALKS[walk](pkg, base, "list_orders", size=3)
    assert result.complete is True and result.reasons == ()
    assert _ids(result.items) == _ids(ORDERS)  # o0..o2 are on page 0: none skipped
    assert result.pages == 4 and _asked(fake, "/orders") == [0, 1, 2, 3]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_zero_based_walk_ending_on_an_empty_page(pkg, api, walk):
    base, fake = api
    fake.pages.clear()
    result = WALKS[walk](pkg, base, "list_logs")
    assert result.complete is True and _ids(result.items) == _ids(LOGS)
    assert [(w.code, w.details) for w in result.warnings] == [
        ("END_INFERRED", {"end": "empty-page", "page": 4})  # the walk's 4th page: number 3
    ]
    assert _asked(fake, "/logs") == [0, 1, 2, 3]


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_zero_based_continuation_resumes_where_it_stopped(pkg, api, walk):
    base, fake = api
    first = WALKS[walk](pkg, base, "list_orders", status="open", size=3, max_pages=1)
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and _ids(first.items) == _ids(OPEN[:3])
    fake.pages.clear()
    rest = WALKS[walk](
        pkg, base, "list_orders", status="open", size=3, continuation=first.continuation
    )
    assert rest.complete is True and _ids(first.items + rest.items) == _ids(OPEN)
    assert _asked(fake, "/orders") == [1]  # resumed at the second page, numbered 1
    cont = importlib.import_module(f"{PACKAGE}._runtime.walk_continuations")
    with pytest.raises(cont.ContinuationMismatch, match="invalidated-by"):
        WALKS[walk](
            pkg, base, "list_orders", status="shipped", size=3, continuation=first.continuation
        )


def test_a_bare_zero_based_page_number_estimates_what_came_before(pkg, api):
    """Starting at page 1 by hand (the second page) reads the rest, no more."""
    base, _ = api
    result = collect_sync(pkg, base, "list_orders", page=1, size=3)
    assert result.complete is True and _ids(result.items) == _ids(ORDERS[3:])


def test_the_mcp_tool_walks_and_resumes_zero_based_pages(pkg, api):
    base, fake = api
    fake.pages.clear()
    env = _tool(pkg, base, "list_orders")
    assert env["status"] == "complete"
    assert _ids(env["data"]["orders"]) == _ids(ORDERS)
    assert _asked(fake, "/orders")[0] == 0
    first = _tool(pkg, base, "list_orders", status="open", max_pages=1)
    assert first["status"] == "partial"
    cursor = first["completeness"]["continuation"]["cursor"]
    rest = _tool(pkg, base, "list_orders", status="open", continuation=cursor)
    assert rest["status"] == "complete"
    assert _ids(first["data"]["orders"]) + _ids(rest["data"]["orders"]) == _ids(OPEN)
    logs = _tool(pkg, base, "list_logs")
    assert logs["status"] == "complete" and _ids(logs["data"]["logs"]) == _ids(LOGS)


def test_the_mock_serves_zero_based_pages(pkg):
    with mock_server(SPEC, "seed: 2\nitems: 7\npage-size: 3\n") as url:
        for walk in WALKS.values():
            result = walk(pkg, url, "list_orders", size=3)
            assert result.complete is True and len(result.items) == 7
            assert len(set(_ids(result.items))) == 7 and result.pages == 3
            logs = walk(pkg, url, "list_logs")
            assert logs.complete is True and len(set(_ids(logs.items))) == 7


def test_verify_recorded_finds_zero_based_pages_in_a_folder(tmp_path):
    """A folder of saved pages is located by page number counted from first-page: page 0 is
    the first saved page (counting from 1 would start at the second and end short)."""
    import json

    from xcompleteness import api as xc

    folder = tmp_path / "pages"
    folder.mkdir()
    for n in range(4):
        rows = ORDERS[n * 3 : (n + 1) * 3]
        page = {"content": rows, "totalPages": 4, "number": n}
        (folder / f"listOrders.{n + 1}.json").write_text(json.dumps(page), "utf-8")
    for n in range(4):
        rows = LOGS[n * LOG_PAGE : (n + 1) * LOG_PAGE]
        (folder / f"listLogs.{n + 1}.json").write_text(json.dumps(rows), "utf-8")
    result = xc.verify(SPEC, "http://orders.example.test", recorded=folder)
    assert result.exit_code == 0 and not result.diagnostics, result.diagnostics
    assert result.summary == (
        "listLogs: ok (1 walk(s), 4 page(s), 5 item(s))",
        "listOrders: ok (2 walk(s), 8 page(s), 10 item(s))",
    )
