"""Listings paged in their JSON request body, served for real (issue 19 §2, request-body paging).

tests/client/specs/body_paging.yaml declares a native POST search whose cursor and page size
travel in the body (``$request.body#/cursor``, ``$request.body#/limit``) and an adapter one in
Box's shape (``marker``/``limit`` in, ``next_marker`` out). Two real uvicorn servers on loopback
answer them:

- a service built on the package's generated ``server.py``: ``ListingTokens.cursor_in`` reads
  the cursor from the body, ``mint_cursor``/``read_cursor`` bind it to the body's filter fields
  and page size (``cursor.invalidated-by: [filter, page-size]``) and to its frozen snapshot,
  ``mint_evidence`` binds the evidence to the same body;
- ``xcompleteness mock`` (the testkit server ``generate --tests`` runs against), which reads a
  body-paged listing's cursor and size from the body.

The generated client (sync and async) and the generated MCP tool (through the official ``mcp``
SDK client) walk each to ``complete: true``, and resume a walk from its continuation.
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
from support.walks import WALKS, call_tools

SPEC = Path(__file__).parent / "specs" / "body_paging.yaml"
PACKAGE = "client_area_body_paging"
SECRET = b"body-paging-service-secret-32byt"
PRINCIPAL = "alice"
FILES = [
    {"id": f"f{i:02d}", "folder": "docs" if i % 4 else "archive", "size": 10 * i} for i in range(23)
]
DOCS = [f for f in FILES if f["folder"] == "docs"]  # 17 files
DEFAULT_SIZE = 5  # the service's page size when the body names none


def _ids(rows: list[Any]) -> list[str]:
    return [r["id"] if isinstance(r, dict) else r.id for r in rows]


class FileService:
    """A native service on the generated ``server.py``: every page request is a POST whose JSON
    body carries the query (``folder``, ``min_size``) and the paging (``cursor``, ``limit``)."""

    def __init__(self, pkg: Any) -> None:
        self.server = importlib.import_module(f"{PACKAGE}.server")
        self.service = self.server.Service(SECRET)
        self.tokens = self.service.search_files
        self.page_model = self.server.PAGE_MODELS["searchFiles"]
        self.lock = threading.Lock()
        self.bodies: list[dict[str, Any]] = []
        self.refused: list[str] = []

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.bodies.append(body)
        tokens = self.tokens
        try:
            cursor = tokens.cursor_in(body=body)
            after, snapshot = None, "v1"
            if cursor is not None:
                claims = tokens.read_cursor(cursor, body=body, principal=PRINCIPAL)
                after, snapshot = claims.data["after"], claims.snapshot
        except self.server.ServiceError as exc:
            with self.lock:
                self.refused.append(str(exc.reason))
            return exc.status, exc.body()
        least = int(body.get("min_size") or 0)
        rows = [f for f in FILES if f["folder"] == body.get("folder") and f["size"] >= least]
        rest = [f for f in rows if after is None or f["id"] > after]
        size = max(1, min(int(body.get("limit") or DEFAULT_SIZE), 50))
        page = rest[:size]
        scope = {"resource": "files", "visibility": "files the caller may read"}
        scope["snapshot"] = snapshot
        if len(rest) > size:
            nxt = tokens.mint_cursor(
                {"after": page[-1]["id"]}, body=body, principal=PRINCIPAL, snapshot=snapshot
            )
            envelope = self.page_model.partial_page(page, next_cursor=nxt, scope=scope)
        else:
            evidence = tokens.mint_evidence(
                {"complete": True, "warnings": []},
                ids=_ids(rows),
                body=body,
                principal=PRINCIPAL,
                snapshot=snapshot,
            )
            envelope = self.page_model.complete_page(page, scope=scope, evidence=evidence)
        return 200, envelope.model_dump(mode="json", exclude_none=True)


def make_app(files: FileService) -> FastAPI:
    app = FastAPI()

    @app.post("/files/search")
    async def search(request: Request) -> JSONResponse:
        status, body = files.answer(await request.json())
        return JSONResponse(body, status)

    return app


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return generate_and_import(SPEC, tmp_path_factory.mktemp("body_paging_gen"), PACKAGE)


@pytest.fixture(scope="module")
def service(pkg):
    files = FileService(pkg)
    with serve(make_app(files)) as base:
        yield base, files


@pytest.fixture(scope="module")
def mock():
    plan = "seed: 3\nitems: 9\npage-size: 4\n"
    with mock_server(SPEC, plan) as url:
        yield url


def _tools(pkg, base: str, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return call_tools(PACKAGE, base, calls, secret=b"m" * 32)


# -- a native service on the generated server.py --------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_the_client_walks_the_native_body_paged_search_to_complete(pkg, service, walk):
    base, files = service
    before = len(files.bodies)
    result = WALKS[walk](pkg, base, "search_files", folder="docs", limit=5)
    assert result.complete is True and result.reasons == () and result.warnings == ()
    assert _ids(result.items) == _ids(DOCS) and result.pages == 4
    assert isinstance(result.evidence, str)  # the service's own evidence, bound to the body
    sent = files.bodies[before:]
    assert [b.get("limit") for b in sent] == [5, 5, 5, 5]
    assert sent[0].get("cursor") is None and all(b.get("cursor") for b in sent[1:])
    assert all(b["folder"] == "docs" for b in sent)


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_a_native_body_cursor_resumes_its_own_query_only(pkg, service, walk):
    base, files = service
    ask = {"folder": "docs", "min_size": 50, "limit": 4}
    wanted = _ids([f for f in DOCS if f["size"] >= 50])
    first = WALKS[walk](pkg, base, "search_files", max_pages=1, **ask)
    assert first.codes == ["CLIENT_PAGE_LIMIT"] and first.continuation.kind == "next_cursor"
    rest = WALKS[walk](pkg, base, "search_files", continuation=first.continuation, **ask)
    assert rest.complete is True
    assert _ids(first.items) + _ids(rest.items) == wanted
    # the cursor is bound to the body's filters and page size: the service refuses it for
    # another folder or size (400 CURSOR_INVALID), and the walk reports it, never merges
    for other in ({**ask, "folder": "archive"}, {**ask, "min_size": 0}, {**ask, "limit": 3}):
        files.refused.clear()
        moved = WALKS[walk](pkg, base, "search_files", continuation=first.continuation, **other)
        assert moved.complete is False and moved.items == []
        assert moved.codes == ["CURSOR_EXPIRED"] and moved.continuation.kind == "restart"
        assert files.refused and files.refused[0].endswith("_mismatch")


def test_the_mcp_tool_walks_the_native_body_paged_search(pkg, service):
    base, files = service
    server_mod = importlib.import_module(f"{PACKAGE}.tools.mcp_server")
    host = server_mod.build_host(base, {}, secret=b"m" * 32)
    (tool,) = [t for t in host.definitions() if t["name"] == "search_files"]
    offered = set(tool["inputSchema"]["properties"])
    # the query's body fields are offered; the body cursor and size are the walk's
    assert {"folder", "min_size"} <= offered and not {"cursor", "limit"} & offered
    before = len(files.bodies)
    (whole,) = _tools(pkg, base, [("search_files", {"folder": "docs", "min_size": 20})])
    assert whole["status"] == "complete" and whole["completeness"]["complete"] is True
    wanted = [f for f in DOCS if f["size"] >= 20]
    assert _ids(whole["data"]["files"]) == _ids(wanted) and isinstance(whole["evidence"], str)
    sent = files.bodies[before:]
    assert len(sent) == -(-len(wanted) // DEFAULT_SIZE) and all(
        (b["folder"], b["min_size"]) == ("docs", 20) for b in sent
    )
    assert "limit" not in sent[0] and sent[0].get("cursor") is None and sent[-1].get("cursor")


def test_the_mcp_tool_resumes_a_partial_native_walk(pkg, service):
    """A partial tool result (one page of the API's default 5) resumed by the tool to complete;
    its continuation offered with another folder is refused by the service, never merged."""
    base, files = service
    (first,) = _tools(pkg, base, [("search_files", {"folder": "docs", "max_pages": 1})])
    assert first["status"] == "partial" and len(first["data"]["files"]) == DEFAULT_SIZE
    cursor = first["completeness"]["continuation"]["cursor"]
    rest, other = _tools(
        pkg,
        base,
        [
            ("search_files", {"folder": "docs", "continuation": cursor}),
            ("search_files", {"folder": "archive", "continuation": cursor}),
        ],
    )
    assert rest["status"] == "complete"
    assert _ids(first["data"]["files"]) + _ids(rest["data"]["files"]) == _ids(DOCS)
    assert other["status"] == "partial" and other["data"]["files"] == []
    assert [r["code"] for r in other["completeness"]["reasons"]] == ["CURSOR_EXPIRED"]
    assert files.refused[-1] == "query_mismatch"


def test_the_generated_server_reads_the_cursor_from_the_body_only(pkg):
    """``cursor_in`` reads the body property a body-paged declaration names (never a query
    parameter of that name); the binding covers the body's filter fields but its paging ones."""
    server = importlib.import_module(f"{PACKAGE}.server")
    tokens = server.Service(SECRET).search_files
    assert (tokens.cursor_param, tokens.body_params) == ("cursor", ("cursor", "limit"))
    assert tokens.paging_params == ()
    assert tokens.cursor_in(query={"cursor": "q"}, body={"folder": "docs"}) is None
    assert tokens.cursor_in(body={"cursor": "c1", "folder": "docs"}) == "c1"
    assert tokens.cursor_in(body={"cursor": ""}) is None
    body = {"folder": "docs", "limit": 5}
    cursor = tokens.mint_cursor({"after": "f01"}, body=body, snapshot="v1")
    # another cursor/limit value (paging) is the same query only for limit when page-size is
    # not declared; here it is, so the size binds too; the filters always do
    assert tokens.read_cursor(cursor, body={**body, "cursor": cursor}).data == {"after": "f01"}
    with pytest.raises(server.CursorInvalidError) as caught:
        tokens.read_cursor(cursor, body={**body, "folder": "archive"})
    assert caught.value.reason == "query_mismatch"
    with pytest.raises(server.CursorInvalidError) as caught:
        tokens.read_cursor(cursor, body={**body, "limit": 6})
    assert caught.value.reason == "page_size_mismatch"
    with pytest.raises(server.CursorInvalidError):
        tokens.read_cursor(cursor, query={"folder": "docs"})  # the body's filters are not sent


# -- the same spec served by `xcompleteness mock` -------------------------------------------


@pytest.mark.parametrize("walk", sorted(WALKS))
@pytest.mark.parametrize("attr", ["search_files", "search_tickets"])
def test_the_mock_serves_body_paged_listings(pkg, mock, walk, attr):
    body = {"folder": "docs"} if attr == "search_files" else {"status": "open"}
    size = "limit"
    result = WALKS[walk](pkg, mock, attr, **body, **{size: 2})
    assert result.complete is True and result.reasons == ()
    assert len(result.items) == 9 and len(set(_ids(result.items))) == 9
    assert result.pages == 5  # 2 + 2 + 2 + 2 + 1: the size was read from the body
    first = WALKS[walk](pkg, mock, attr, max_pages=2, **body, **{size: 2})
    assert first.codes == ["CLIENT_PAGE_LIMIT"]
    rest = WALKS[walk](pkg, mock, attr, continuation=first.continuation, **body, **{size: 2})
    assert rest.complete is True
    assert _ids(first.items) + _ids(rest.items) == _ids(result.items)


def test_the_mcp_tool_walks_the_mock_body_paged_listings(pkg, mock):
    files, tickets = _tools(
        pkg,
        mock,
        [("search_files", {"folder": "docs"}), ("search_tickets", {"status": "open"})],
    )
    assert files["status"] == "complete" and len(files["data"]["files"]) == 9
    assert isinstance(files["evidence"], str)
    assert tickets["status"] == "complete" and len(tickets["data"]["tickets"]) == 9
