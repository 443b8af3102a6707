"""The loopback API of the tools tests: tests/support/fault_server.py plus an archive endpoint.

``ToolsApi`` extends the fault server's collection with what the agent-tool tests need: a
``STALE_INDEX`` warning that can be switched on, and ``POST /items/archive`` that records every
call (so a test can assert the API was NOT called) and re-checks the API's own evidence token the
way a native service would (409 ``EVIDENCE_REJECTED`` when it does not match the current version).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from support.fault_server import FaultyCollection


class ToolsApi(FaultyCollection):
    def __init__(self, n: int = 0, **kw: Any) -> None:
        super().__init__(n, **kw)
        self.stale = False
        self.archive_calls: list[dict[str, Any]] = []
        self.label_calls: list[dict[str, Any]] = []
        self.purge_calls: list[str] = []

    def native(self, params: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        status, headers, body = super().native(params)
        if self.stale and isinstance(body, dict) and "warnings" in body:
            body["warnings"] = [{"code": "STALE_INDEX", "message": "index lags", "source": "idx"}]
        return status, headers, body

    def archive(self, body: Any) -> tuple[int, Any]:
        self.archive_calls.append(body)
        ids = body.get("ids") if isinstance(body, dict) else None
        if body.get("evidence") != f"evidence-{self.version}":
            error = {"code": "EVIDENCE_REJECTED", "reason": "stale", "message": "evidence mismatch"}
            return 409, {"error": error}
        for item_id in ids or []:
            self.delete(str(item_id))
        return 200, {"archived": list(ids or [])}


def make_tools_app(api: ToolsApi) -> FastAPI:
    """``/items`` (native), ``/search`` (GitHub-like) and ``/items/archive`` over ``api``.

    Built here rather than with ``fault_server.make_app`` so the route annotations resolve at
    module level (``from __future__ import annotations`` turns them into strings).
    """
    app = FastAPI()

    @app.get("/items")
    def items(request: Request) -> JSONResponse:
        status, headers, body = api.native(dict(request.query_params))
        return JSONResponse(body, status_code=status, headers=headers)

    @app.get("/search")
    def search(request: Request) -> JSONResponse:
        base = str(request.base_url).rstrip("/")
        status, headers, body = api.github(dict(request.query_params), base)
        return JSONResponse(body, status_code=status, headers=headers)

    @app.get("/items/{item_id}")
    def item(item_id: str) -> JSONResponse:
        row = api._row(item_id)
        if row is None:
            return JSONResponse({"error": {"code": "NOT_FOUND", "message": "no such item"}}, 404)
        return JSONResponse({"id": row.id, "rank": row.rank})

    @app.post("/items/labels")
    async def label(request: Request) -> JSONResponse:
        body = await request.json()
        api.label_calls.append(body)
        return JSONResponse({"labelled": len(body.get("ids") or [])})

    @app.post("/items/{item_id}/purge")
    def purge(item_id: str) -> JSONResponse:
        api.purge_calls.append(item_id)
        return JSONResponse({})

    @app.post("/items/archive")
    async def archive(request: Request) -> JSONResponse:
        status, body = api.archive(await request.json())
        return JSONResponse(body, status_code=status)

    return app
